/**
 * Reads the relay's public API (docs/api.md) for the page. Every failure becomes an `ApiError` with a
 * sentence a reader can act on: the relay's own error message, or that it does not answer.
 */
export class ApiError extends Error {
  /** @param {number} status 0 when the relay did not answer @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * @param {string} path e.g. `/v1/resolvers`
 * @returns {Promise<any>}
 */
export async function getJson(path) {
  let res;
  try {
    res = await fetch(path, { headers: { accept: "application/json" } });
  } catch {
    throw new ApiError(0, "unreachable", "The relay does not answer. Is it running?");
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const { code, message } = errorOf(body);
    throw new ApiError(res.status, code ?? `http_${res.status}`, message ?? `The relay answered ${res.status}.`);
  }
  if (body === null) throw new ApiError(res.status, "not_json", `The answer to ${path} is not JSON.`);
  return body;
}

/**
 * The code and message of an error body, `{error: "<code>", message}` (docs/api.md, "Conventions").
 *
 * @param {unknown} body
 * @returns {{code?: string, message?: string}}
 */
export function errorOf(body) {
  if (!body || typeof body !== "object") return {};
  const { error, message } = /** @type {{error?: unknown, message?: unknown}} */ (body);
  return {
    code: typeof error === "string" ? error : undefined,
    message: typeof message === "string" ? message : undefined,
  };
}

let config = null;

/** The configuration record (tokens, chains), read once per page load: it changes only with a deploy. */
export function getConfig() {
  config ??= getJson("/v1/config").catch((e) => {
    config = null;
    throw e;
  });
  return config;
}
