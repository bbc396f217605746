import type { ApiKeyQuotas } from "../schemas";

/** An integrator's API key as stored: never the key itself, only its hash (docs/operations.md, "API keys"). */
export interface ApiKeyRow {
  id: string;
  name: string;
  quotas: ApiKeyQuotas;
  createdAt: string;
  revokedAt: string | null;
}

interface Row {
  id: string;
  name: string;
  quotas: string;
  created_at: string;
  revoked_at: string | null;
}

const COLUMNS = "id, name, quotas, created_at, revoked_at";

const fromRow = (r: Row): ApiKeyRow => ({
  id: r.id,
  name: r.name,
  quotas: JSON.parse(r.quotas) as ApiKeyQuotas,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export async function insertApiKey(db: D1Database, hash: string, key: Omit<ApiKeyRow, "revokedAt">): Promise<void> {
  await db
    .prepare("INSERT INTO api_keys (id, hash, name, quotas, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
    .bind(key.id, hash, key.name, JSON.stringify(key.quotas), key.createdAt)
    .run();
}

/** The live key with this hash; null when none is, or it was revoked. */
export async function apiKeyByHash(db: D1Database, hash: string): Promise<ApiKeyRow | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM api_keys WHERE hash = ?1 AND revoked_at IS NULL`)
    .bind(hash)
    .first<Row>();
  return row ? fromRow(row) : null;
}

export async function listApiKeys(db: D1Database): Promise<ApiKeyRow[]> {
  const { results } = await db.prepare(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at DESC, id`).all<Row>();
  return results.map(fromRow);
}

/** Revokes key `id` (once); the key as it now stands, or null when there is no such key. */
export async function revokeApiKey(db: D1Database, id: string, at: string): Promise<ApiKeyRow | null> {
  const row = await db
    .prepare(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?2) WHERE id = ?1 RETURNING ${COLUMNS}`)
    .bind(id, at)
    .first<Row>();
  return row ? fromRow(row) : null;
}
