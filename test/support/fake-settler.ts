import {
  type BroadcastResult,
  type ChainSettler,
  ChainUnavailableError,
  type FillReadiness,
  type FillRequest,
  notReady,
  type Preflight,
  type Preparation,
  type PreparedFill,
  type SignedFill,
  type SubmissionChecks,
  type TakerCheck,
  type TxReceipt,
  type TxStatus,
} from "../../src/chains/settler";

const KEEPER = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";

/**
 * A chain in memory for the keeper's tests: scripted answers to readiness, simulation and broadcasts,
 * a mempool, receipts set by the test, and a head the test moves. Nothing waits and nothing is sent.
 */
export class FakeSettler implements ChainSettler {
  signatureValid = true;
  readinessAnswer: FillReadiness = { ready: true };
  preparation: Preparation = { kind: "prepared", fill: { call: { to: KEEPER, data: "0x" }, gas: 100_000n } };
  /** Runs inside each check of the taker's signature, before the keeper claims the quote (a taker acting meanwhile). */
  duringVerify: (() => Promise<void>) | null = null;
  /** Runs inside each simulation, from its start (the keeper checks the taker's signature meanwhile). */
  duringPreflight: (() => Promise<void>) | null = null;
  /** How many simulations were started. */
  preflights = 0;
  /**
   * While true, a broadcast never reaches the network nor answers: the keeper that sent it stands as a crash
   * would leave it, its transaction stored and its claim made (a keeper over the same store is its restart).
   */
  crashAtBroadcast = false;
  /** The transactions whose broadcast `crashAtBroadcast` cut short, in order. */
  readonly cutShort: string[] = [];
  /** The next broadcasts' answers, in order; `accepted` once they run out. */
  readonly broadcastAnswers: BroadcastResult[] = [];
  /** While true, every read of the chain throws as an RPC that does not answer. */
  down = false;
  headBlock = 100;
  /** Every transaction the network was handed and accepted, by hash, in order. */
  readonly sent: string[] = [];
  readonly released: number[] = [];
  /** Refused nonces a later transaction waited on, filled in the order they were released. */
  readonly filled: number[] = [];
  /** How many indexer passes asked the wallet to fill its gaps. */
  gapPasses = 0;
  /** Whether the wallet says a filler of its has not got through (`gapOpen`). */
  gapIsOpen = false;
  /** While set, each broadcast takes its answer and waits with it until `answerHeld`. */
  holdBroadcasts = false;
  readonly held: (() => void)[] = [];
  /** The nonce the next signing takes; tests sharing one D1 start apart, so their hashes differ. */
  nextNonce = 0;
  private readonly mempool = new Set<string>();
  private readonly chainSays = new Map<string, TxStatus>();
  /** How many transactions each `statuses` call asked about, one entry per call (one round trip of reads). */
  readonly statusReads: number[] = [];

  /** How many times signing found the wallet not ready (a read the fast path should have done before). */
  coldSigns = 0;
  private warm = false;

  constructor(
    readonly chainId = 31337,
    private readonly finalityConfirmations = 2,
    /** The wallet's address: a pool is several fakes with different ones. */
    readonly keeper = KEEPER,
  ) {}

  preflight(): SubmissionChecks {
    const fill = this.simulate();
    return { taker: this.verifyTaker(), fill };
  }

  private async verifyTaker(): Promise<TakerCheck> {
    await this.duringVerify?.();
    return this.signatureValid ? { ok: true } : { ok: false, code: "bad_signature", reason: "forged" };
  }

  private async simulate(): Promise<Preflight> {
    this.preflights++;
    this.reachable();
    await this.duringPreflight?.();
    return notReady(this.readinessAnswer) ?? this.preparation;
  }

  async ready(): Promise<void> {
    this.reachable();
    this.warm = true;
  }

  async sign(request: FillRequest, fill: PreparedFill, record: (tx: SignedFill) => void): Promise<SignedFill> {
    if (!this.warm) {
      this.coldSigns++;
      this.reachable();
    }
    const nonce = this.nextNonce++;
    // Another wallet's address in the hash, so the transactions of a pool's wallets never share one.
    const tag = this.keeper === KEEPER ? "" : this.keeper.slice(2, 10).toLowerCase();
    const hash = `0x${tag}${nonce.toString(16).padStart(64 - tag.length, "0")}`;
    const tx: SignedFill = { hash, raw: `0xraw${nonce}`, nonce, call: fill.call, request };
    record(tx);
    return tx;
  }

  async release(tx: SignedFill, forget: () => void): Promise<void> {
    forget();
    this.released.push(tx.nonce);
    // The last nonce taken is taken again; one a later transaction waits on is filled.
    if (this.nextNonce === tx.nonce + 1) this.nextNonce = tx.nonce;
    else this.filled.push(tx.nonce);
  }

  /** Lets every held broadcast answer. */
  answerHeld(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  async fillGaps(): Promise<void> {
    this.gapPasses++;
  }

  gapOpen(): boolean {
    return this.gapIsOpen;
  }

  async broadcast(tx: SignedFill): Promise<BroadcastResult> {
    if (this.crashAtBroadcast) {
      this.cutShort.push(tx.hash);
      return new Promise(() => {});
    }
    const answer = this.broadcastAnswers.shift() ?? { status: "accepted" };
    if (this.holdBroadcasts) await new Promise<void>((resolve) => this.held.push(resolve));
    if (answer.status === "accepted") {
      this.mempool.add(tx.hash);
      this.sent.push(tx.hash);
    }
    return answer;
  }

  async recover(tx: SignedFill): Promise<BroadcastResult> {
    this.reachable();
    return this.mempool.has(tx.hash) ? { status: "known" } : this.broadcast(tx);
  }

  async statuses(txs: readonly SignedFill[]): Promise<(() => Promise<TxStatus>)[]> {
    this.reachable();
    this.statusReads.push(txs.length);
    return txs.map((tx) => {
      const status = this.chainSays.get(tx.hash) ?? { state: "pending" };
      return async () => status;
    });
  }

  /** Replaced after a minute, up to twice; a replacement's hash is the original's with `~<n>`. */
  readonly replacement = { afterMs: 60_000, maxBumps: 2 };

  async replace(tx: SignedFill): Promise<SignedFill> {
    const n = Number(tx.hash.split("~")[1] ?? 0) + 1;
    return { ...tx, hash: `${tx.hash.split("~")[0]}~${n}`, raw: `${tx.raw}~${n}` };
  }

  async head(): Promise<number> {
    this.reachable();
    return this.headBlock;
  }

  isFinal(block: number, head: number): boolean {
    return head - block + 1 >= this.finalityConfirmations;
  }

  /** The network takes the transaction without its answer reaching the keeper. */
  acceptSilently(hash: string): void {
    this.mempool.add(hash);
  }

  /** What the chain says of a transaction from now on. */
  setStatus(hash: string, status: TxStatus): void {
    this.chainSays.set(hash, status);
  }

  /** The transaction lands at the head with one fill of `quoteId`. */
  land(hash: string, quoteId: string, fill: { sellToken: string; resolver: string; sellAmount: bigint }): TxReceipt {
    const receipt: TxReceipt = {
      hash,
      status: "success",
      block: this.headBlock,
      blockTime: new Date(0).toISOString(),
      keeperSpent: 21_000n * 2_000_000_000n,
      gasUsed: 150_000n,
      from: KEEPER,
      fills: [
        {
          orderHash: `0x${"aa".repeat(32)}`,
          quoteId,
          resolver: fill.resolver,
          filler: KEEPER,
          taker: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
          sellToken: fill.sellToken,
          sellAmount: fill.sellAmount,
          buyToken: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
          outputAmount: 1_000_000n,
          received: 949_000n,
          fee: 1_000n,
          gasFee: 50_000n,
          logIndex: 0,
        },
      ],
    };
    this.setStatus(hash, { state: "landed", receipt });
    return receipt;
  }

  private reachable(): void {
    if (this.down) throw new ChainUnavailableError("the fake chain is down");
  }
}
