import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The relay's log lines (docs/operations.md, "Logs"): one object per line, `{level, event, requestId?,
 * ...fields}`, which Workers Logs indexes field by field and `wrangler tail --format json` prints whole.
 * The request id of the HTTP request being served is added to every line written while serving it, in
 * the Worker and, passed along with the call, in the corridor and keeper objects and their chain calls.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

const scope = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `run` so that every line it logs, across awaits, carries `requestId` (none: as it is). */
export function withRequestId<T>(requestId: string | undefined, run: () => T): T {
  return requestId ? scope.run({ requestId }, run) : run();
}

/** The request id in scope, to hand on to another object. */
export const currentRequestId = (): string | undefined => scope.getStore()?.requestId;

/** The line itself: level and event first, the request id when there is one, then the fields. */
export function logRecord(level: LogLevel, event: string, fields: LogFields, requestId?: string): LogFields {
  return { level, event, ...(requestId ? { requestId } : {}), ...fields };
}

const sinks: Record<LogLevel, (line: LogFields | string) => void> = {
  debug: (line) => console.debug(line),
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

/**
 * How this isolate writes its lines: JSON objects (deployed, and by default), or one short line each
 * (`LOG_FORMAT=line`, as `npm start` runs the relay; docs/local-stack.md, "Logs").
 */
let format: "json" | "line" = "json";

/** Takes the format from the `LOG_FORMAT` variable; every entry point calls it with its env (src/entry.ts). */
export function useLogFormat(value: string | undefined): void {
  format = value === "line" ? "line" : "json";
}

/**
 * A line as one short line of text: a request as `METHOD path status ms`, any other event by name with its
 * fields as `key=value`; warnings and errors say so first; the request id last.
 */
export function logLine(line: LogFields): string {
  const { level, event, requestId, ...fields } = line;
  const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  const head = level === "warn" || level === "error" ? `${String(level).toUpperCase()} ` : "";
  const body =
    event === "request"
      ? `${fields.method} ${fields.path} ${fields.status} ${fields.ms}ms`
      : [event, ...Object.entries(fields).map(([k, v]) => `${k}=${text(v)}`)].join(" ");
  return `${head}${body}${requestId ? ` (${requestId})` : ""}`;
}

function write(level: LogLevel, event: string, fields: LogFields = {}): void {
  const record = logRecord(level, event, fields, currentRequestId());
  sinks[level](format === "line" ? logLine(record) : record);
}

export const log = {
  debug: (event: string, fields?: LogFields) => write("debug", event, fields),
  info: (event: string, fields?: LogFields) => write("info", event, fields),
  warn: (event: string, fields?: LogFields) => write("warn", event, fields),
  error: (event: string, fields?: LogFields) => write("error", event, fields),
};

/** What an unknown thrown value says, for a log field. */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * How long after an answer is handed to the runtime the work that records it starts: the request's line
 * (docs/operations.md, "When the lines are written") and the keeper's record of a submission
 * (docs/settlement.md, "The fast path"). A timer of 0 fires before the runtime has sent the answer's
 * bytes, so that work's cost was in the answer's latency; a few ms later the answer has left.
 */
export const LINE_AFTER_ANSWER_MS = 5;

/** Settles once an answer handed to the runtime now has left: when the work that records it may run. */
export const answerLeft = (): Promise<void> => new Promise((r) => setTimeout(r, LINE_AFTER_ANSWER_MS));
