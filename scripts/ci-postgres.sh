#!/usr/bin/env bash
# Sourced by .ci/run: a PostgreSQL server for the store tests, its URL in HIPO_TEST_PG_URL.
# 1. HIPO_TEST_PG_URL already set: used as it is.
# 2. The machine's cluster (Debian's pg_ctlcluster), as root: started if stopped; a `hipo_ci`
#    role (password made up per run) and a fresh `hipo_ci` database it owns (dropped first, so
#    that nothing a previous run or a person left there is tested).
# 3. Otherwise, a PostgreSQL installed but no cluster we may use: a private one in a temporary
#    folder, on a free port, stopped when CI exits.
# 4. No PostgreSQL: nothing is set, and the store tests say they are skipped and why.
# The URL is never printed with its password.

hipo_pg_private() {
  local bin="$1" dir port
  dir="$(mktemp -d)"
  port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  "$bin/initdb" -D "$dir/data" -U hipo_ci --auth=trust >/dev/null || return 1
  "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1" -l "$dir/log" -w start >/dev/null || return 1
  trap "'$bin/pg_ctl' -D '$dir/data' -m fast stop >/dev/null 2>&1; rm -rf '$dir'" EXIT
  "$bin/createdb" -h 127.0.0.1 -p "$port" -U hipo_ci hipo_test || return 1
  export HIPO_TEST_PG_URL="postgres://hipo_ci@127.0.0.1:$port/hipo_test"
  echo "postgres: a private cluster in $dir on port $port"
}

hipo_pg_machine() {
  local ver name port status pass
  read -r ver name port status _ < <(pg_lsclusters --no-header | head -1) || return 1
  [ -n "$ver" ] || return 1
  if [ "$status" != "online" ]; then
    pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start || return 1
  fi
  pass="$(node -p 'require("crypto").randomBytes(12).toString("hex")')"
  runuser -u postgres -- psql -p "$port" -qv ON_ERROR_STOP=1 >/dev/null <<SQL || return 1
SELECT 'CREATE ROLE hipo_ci LOGIN CREATEDB' WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'hipo_ci') \gexec
ALTER ROLE hipo_ci PASSWORD '$pass';
DROP DATABASE IF EXISTS hipo_ci WITH (FORCE);
CREATE DATABASE hipo_ci OWNER hipo_ci;
SQL
  export HIPO_TEST_PG_URL="postgres://hipo_ci:$pass@127.0.0.1:$port/hipo_ci"
  echo "postgres: the machine's cluster $ver/$name on port $port"
}

if [ -n "${HIPO_TEST_PG_URL:-}" ]; then
  echo "postgres: HIPO_TEST_PG_URL given"
elif [ "$(id -u)" = 0 ] && command -v pg_lsclusters >/dev/null && command -v runuser >/dev/null && hipo_pg_machine; then
  :
else
  pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  if [ -n "$pg_bin" ] && [ "$(id -u)" != 0 ] && hipo_pg_private "$pg_bin"; then
    :
  else
    echo "postgres: no server this CI can start; the PostgreSQL store tests will be skipped"
  fi
fi
