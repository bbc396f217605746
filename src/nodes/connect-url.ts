import type { AdvertisedCorridor } from "../schemas";

/** The corridor a connect URL advertises (`/v1/corridors/{chainId}/{tokenA}/{tokenB}/connect`), in its token order. */
export function advertisedCorridor(url: string): AdvertisedCorridor | null {
  const match = /\/v1\/corridors\/(\d+)\/([^/]+)\/([^/]+)\/connect$/.exec(new URL(url).pathname);
  if (!match) return null;
  const [, chainId = "", tokenA = "", tokenB = ""] = match;
  return { chainId: Number(chainId), baseToken: decodeURIComponent(tokenA), quoteToken: decodeURIComponent(tokenB) };
}
