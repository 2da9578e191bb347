// A better-sqlite3 adapter for node-oidc-provider, so that the peer keeps its grants, codes, sessions
// and tokens in SQLite like Svc does (same pragmas: WAL, synchronous NORMAL), with prepared statements
// and indexes on every lookup the provider makes (id, grant id, session uid, user code).
import Database from 'better-sqlite3';

/** Opens `filename` and resolves to the adapter class the provider is configured with. */
export function sqliteAdapter(filename) {
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS oidc (
    model TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL, grant_id TEXT, uid TEXT,
    user_code TEXT, expires_at INTEGER, consumed_at INTEGER, PRIMARY KEY (model, id));
    CREATE INDEX IF NOT EXISTS oidc_grant ON oidc (grant_id);
    CREATE INDEX IF NOT EXISTS oidc_uid ON oidc (model, uid);
    CREATE INDEX IF NOT EXISTS oidc_user_code ON oidc (model, user_code);`);
  const upsert = db.prepare(`INSERT INTO oidc (model, id, payload, grant_id, uid, user_code, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload,
    grant_id = excluded.grant_id, uid = excluded.uid, user_code = excluded.user_code,
    expires_at = excluded.expires_at, consumed_at = NULL`);
  const byId = db.prepare('SELECT payload, expires_at, consumed_at FROM oidc WHERE model = ? AND id = ?');
  const byUid = db.prepare('SELECT payload, expires_at, consumed_at FROM oidc WHERE model = ? AND uid = ?');
  const byUserCode = db.prepare(
    'SELECT payload, expires_at, consumed_at FROM oidc WHERE model = ? AND user_code = ?',
  );
  const consume = db.prepare('UPDATE oidc SET consumed_at = ? WHERE model = ? AND id = ?');
  const destroy = db.prepare('DELETE FROM oidc WHERE model = ? AND id = ?');
  const revoke = db.prepare('DELETE FROM oidc WHERE grant_id = ?');

  const read = (row) => {
    if (row === undefined) return undefined;
    if (row.expires_at !== null && row.expires_at <= Date.now()) return undefined;
    const payload = JSON.parse(row.payload);
    return row.consumed_at === null ? payload : { ...payload, consumed: row.consumed_at };
  };

  return class SqliteAdapter {
    constructor(model) {
      this.model = model;
    }

    async upsert(id, payload, expiresIn) {
      const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : null;
      upsert.run(
        this.model,
        id,
        JSON.stringify(payload),
        payload.grantId ?? null,
        payload.uid ?? null,
        payload.userCode ?? null,
        expiresAt,
      );
    }

    async find(id) {
      return read(byId.get(this.model, id));
    }

    async findByUid(uid) {
      return read(byUid.get(this.model, uid));
    }

    async findByUserCode(userCode) {
      return read(byUserCode.get(this.model, userCode));
    }

    async consume(id) {
      consume.run(Math.floor(Date.now() / 1000), this.model, id);
    }

    async destroy(id) {
      destroy.run(this.model, id);
    }

    async revokeByGrantId(grantId) {
      revoke.run(grantId);
    }
  };
}
