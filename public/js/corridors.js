/**
 * The corridors the relay serves, read from the configuration record as the relay reads its own
 * (`allCorridors` of src/corridors.ts: every pair of an EVM chain's tokens, a Solana chain's `pairs`),
 * with the nodes connected to each and its rate band. Pure: unit-tested in Node against the relay's own.
 */

/**
 * The canonical corridor key `<chainId>:<tokenA>:<tokenB>` (docs/oracle.md): EVM addresses in lower
 * case, Solana's as they are, the two sorted.
 *
 * @param {{chainId: number, kind: string}} chain
 * @param {string} a
 * @param {string} b
 */
export function corridorKey(chain, a, b) {
  const [x, y] = chain.kind === "evm" ? [a.toLowerCase(), b.toLowerCase()] : [a, b];
  return x < y ? `${chain.chainId}:${x}:${y}` : `${chain.chainId}:${y}:${x}`;
}

/** @param {any} chain a chain of the configuration record */
function pairsOf(chain) {
  if (chain.kind === "solana") return (chain.pairs ?? []).filter((p) => p.length === 2);
  return chain.tokens.flatMap((t, i) => chain.tokens.slice(i + 1).map((u) => [t.address, u.address]));
}

/**
 * @typedef {{symbol: string, address: string, decimals: number, known: boolean}} Token
 * @typedef {{key: string, chainId: number, chainName: string, tokens: [Token, Token], band: any, nodes: any[]}} Corridor
 */

/**
 * A token of a chain by address, or a stand-in naming the address when the configuration does not list it.
 *
 * @param {any} config the configuration record (`GET /v1/config`)
 * @param {number} chainId
 * @param {string} address
 * @returns {Token}
 */
export function tokenOf(config, chainId, address) {
  const chain = config.chains.find((c) => c.chainId === chainId);
  const same = (a) => (chain?.kind === "evm" ? a.toLowerCase() === address.toLowerCase() : a === address);
  const token = chain?.tokens.find((t) => same(t.address));
  return token
    ? { symbol: token.symbol, address: token.address, decimals: token.decimals, known: true }
    : { symbol: address, address, decimals: 0, known: false };
}

/**
 * Every corridor of the configuration, each with its tokens, its band (`GET /v1/rates`) or null, and the
 * nodes (`GET /v1/nodes`) that advertised it.
 *
 * @param {any} config
 * @param {any[]} nodes
 * @param {any[]} bands
 * @returns {Corridor[]}
 */
export function corridorsOf(config, nodes, bands) {
  return config.chains.flatMap((chain) =>
    pairsOf(chain).map(([a, b]) => {
      const key = corridorKey(chain, a, b);
      return {
        key,
        chainId: chain.chainId,
        chainName: chain.name,
        tokens: [tokenOf(config, chain.chainId, a), tokenOf(config, chain.chainId, b)],
        band: bands.find((band) => band.corridor === key) ?? null,
        nodes: nodes.filter((node) =>
          node.corridors.some(
            (c) => c.chainId === chain.chainId && corridorKey(chain, c.baseToken, c.quoteToken) === key,
          ),
        ),
      };
    }),
  );
}

/**
 * A band's corridor key written with token symbols, `cNGN / USDC on anvil`, for the rates table.
 *
 * @param {any} config
 * @param {string} key
 */
export function corridorName(config, key) {
  const [chainId, a, b] = key.split(":");
  const chain = config.chains.find((c) => String(c.chainId) === chainId);
  if (!chain || !a || !b) return key;
  return `${tokenOf(config, chain.chainId, a).symbol} / ${tokenOf(config, chain.chainId, b).symbol} on ${chain.name}`;
}

/**
 * What a band of `GET /v1/rates` is for: its corridor written with token symbols, or, for a native
 * price's band that is no corridor's (`corridor` null), its pair, `ETH in USD (native price)`.
 *
 * @param {any} config
 * @param {{corridor: string | null, base: string, quote: string}} band
 */
export function bandName(config, band) {
  return band.corridor === null ? `${band.base} in ${band.quote} (native price)` : corridorName(config, band.corridor);
}
