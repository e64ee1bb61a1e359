#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests: created with initdb in a temporary directory, started with
# pg_ctl on a Unix socket in that directory (no TCP port, nothing else on the machine can reach it), and
# removed when the command exits.
#
#   scripts/pg_test_cluster.sh .venv/bin/python -m pytest -q
#
# runs the command with TEST_DATABASE_URL pointing at the cluster and exits with the command's status.
# PostgreSQL refuses to run as root, so as root the cluster runs as the user `nobody` (or PG_TEST_USER).
# Without PostgreSQL's programs (Debian: apt-get install postgresql) it says so and runs the command
# without TEST_DATABASE_URL: the PostgreSQL cases then skip and the SQLite half still runs.
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGS...]" >&2
    exit 64
fi

find_bindir() {
    if [ -n "${PG_BINDIR:-}" ]; then echo "$PG_BINDIR"; return; fi
    if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
    local d
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return; fi
    done
}

bindir="$(find_bindir)"
if [ -z "$bindir" ]; then
    echo "pg_test_cluster: no PostgreSQL server programs found (initdb, pg_ctl); PostgreSQL tests will skip" >&2
    exec "$@"
fi

run_as=()
owner="$(id -un)"
if [ "$(id -u)" -eq 0 ]; then
    owner="${PG_TEST_USER:-nobody}"
    run_as=(runuser -u "$owner" --)
fi

# /tmp rather than $TMPDIR: the server user must be able to reach it, and socket paths must stay short.
workdir="$(mktemp -d /tmp/pg-test.XXXXXX)"
chmod 755 "$workdir"
datadir="$workdir/data"
sockdir="$workdir/sock"
mkdir -p "$sockdir"
chown "$owner" "$workdir" "$sockdir"

# Server programs run from the cluster's own directory: the server user may not be allowed into ours.
as_owner() { (cd "$workdir" && "${run_as[@]}" "$@"); }

cleanup() {
    if [ -f "$datadir/postmaster.pid" ]; then
        as_owner "$bindir/pg_ctl" -D "$datadir" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

as_owner "$bindir/initdb" -D "$datadir" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
    >"$workdir/initdb.log" 2>&1 || { cat "$workdir/initdb.log" >&2; exit 1; }
# Tuned for throw-away test data: no fsync, a small footprint, only the socket.
as_owner "$bindir/pg_ctl" -D "$datadir" -l "$workdir/server.log" -w -t 60 \
    -o "-c listen_addresses='' -c unix_socket_directories='$sockdir' -c fsync=off -c synchronous_commit=off \
        -c full_page_writes=off -c max_connections=200 -c shared_buffers=64MB" start >/dev/null \
    || { cat "$workdir/server.log" >&2; exit 1; }

export TEST_DATABASE_URL="postgresql://postgres@/postgres?host=$sockdir"
echo "pg_test_cluster: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on $sockdir" >&2
status=0
"$@" || status=$?
exit "$status"
