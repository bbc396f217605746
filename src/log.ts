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

const sinks: Record<LogLevel, (line: LogFields) => void> = {
  debug: (line) => console.debug(line),
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

function write(level: LogLevel, event: string, fields: LogFields = {}): void {
  sinks[level](logRecord(level, event, fields, currentRequestId()));
}

export const log = {
  debug: (event: string, fields?: LogFields) => write("debug", event, fields),
  info: (event: string, fields?: LogFields) => write("info", event, fields),
  warn: (event: string, fields?: LogFields) => write("warn", event, fields),
  error: (event: string, fields?: LogFields) => write("error", event, fields),
};

/** What an unknown thrown value says, for a log field. */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
