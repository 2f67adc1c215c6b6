# shellcheck shell=bash
# Shared by bin/run and bin/test: the virtualenv and the backing services.
#
#   source bin/lib/env.sh
#   spades_ensure_venv        # .venv from requirements/lock.txt (hashes checked), then the
#                             # project editable (skipped while lock and pyproject are unchanged)
#   spades_ensure_postgres    # exports DATABASE_URL, DATABASE_OWNER_URL
#   spades_ensure_redis       # exports REDIS_URL
#   spades_ensure_chromium    # Debian's chromium for the e2e tests (exports SPADES_CHROMIUM)
#   spades_ensure_axe         # axe-core from package-lock.json into node_modules (e2e a11y check)
#   spades_ensure_docker_compose  # Debian's docker-compose for the compose-file check
#   spades_ensure_nginx       # Debian's nginx binary for the proxy sample's `nginx -t`
#   trap spades_stop_started_services EXIT
#
# Services are found in this order, and only those this script started are stopped:
#   PostgreSQL: $DATABASE_URL if it connects; else a server on 127.0.0.1:$SPADES_PG_PORT
#     (default 5432, superuser $SPADES_PG_SUPERUSER=postgres, trust auth) where the roles
#     and database are created; else a project-local cluster in .run/pgdata on
#     $SPADES_PG_LOCAL_PORT (default 54329), installing PostgreSQL with apt if missing.
#   Redis: $REDIS_URL if it answers PING; else 127.0.0.1:$SPADES_REDIS_PORT (default 6379);
#     else a private redis-server on $SPADES_REDIS_LOCAL_PORT (default 6390).

SPADES_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SPADES_RUN_DIR="$SPADES_ROOT/.run"
SPADES_VENV="$SPADES_ROOT/.venv"
SPADES_PY="$SPADES_VENV/bin/python"

: "${SPADES_DB_NAME:=spades}"
: "${SPADES_PG_HOST:=127.0.0.1}"
: "${SPADES_PG_PORT:=5432}"
: "${SPADES_PG_LOCAL_PORT:=54329}"
: "${SPADES_PG_SUPERUSER:=postgres}"
: "${SPADES_REDIS_PORT:=6379}"
: "${SPADES_REDIS_LOCAL_PORT:=6390}"

# Services this process started: a name and a stop command each, stopped in reverse order.
SPADES_STARTED_NAMES=()
SPADES_STARTED=()

spades_log() { printf '\033[1;34m[spades]\033[0m %s\n' "$*" >&2; }
spades_die() { printf '\033[1;31m[spades] error:\033[0m %s\n' "$*" >&2; exit 1; }

spades_apt_install() {
    [ "$(id -u)" -eq 0 ] || spades_die "$* is not installed; install it (apt-get install -y $*) or set the URL env vars"
    command -v apt-get >/dev/null || spades_die "$* is not installed and apt-get is unavailable"
    spades_log "installing $* with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

# ---------------------------------------------------------------- virtualenv
spades_find_python() {
    local candidate
    for candidate in python3.11 python3; do
        if command -v "$candidate" >/dev/null \
            && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

# The exact versions to install (bin/lock writes it from pyproject.toml).
SPADES_LOCK="$SPADES_ROOT/requirements/lock.txt"

spades_ensure_venv() {
    if [ ! -x "$SPADES_PY" ]; then
        local python
        python="$(spades_find_python)" || spades_die "Python 3.11 not found (apt-get install python3.11 python3.11-venv)"
        spades_log "creating .venv with $python"
        "$python" -m venv "$SPADES_VENV" || spades_die "could not create .venv (is python3.11-venv installed?)"
    fi
    [ -f "$SPADES_LOCK" ] || spades_die "requirements/lock.txt is missing: run bin/lock"
    local stamp="$SPADES_VENV/.spades-install-stamp" hash
    hash="$(cat "$SPADES_LOCK" "$SPADES_ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$hash" ]; then
        # A lock compiled from other dependency lists than pyproject.toml's would install
        # something nobody tested with these declarations: refuse it.
        local recorded expected
        recorded="$(sed -n 's/^# spades-lock-inputs: //p' "$SPADES_LOCK")"
        expected="$("$SPADES_PY" "$SPADES_ROOT/bin/lib/lock_inputs.py" "$SPADES_ROOT/pyproject.toml")"
        [ "$recorded" = "$expected" ] \
            || spades_die "requirements/lock.txt does not match the dependencies in pyproject.toml: run bin/lock and commit requirements/lock.txt"
        spades_log "installing requirements/lock.txt, then the project, into .venv (lock or pyproject.toml changed)"
        # Every package pinned and checked against its hash; the lock pins pip and the build
        # backend too, so the editable install below builds with those (no isolation).
        "$SPADES_PY" -m pip install --quiet --disable-pip-version-check --require-hashes \
            -r "$SPADES_LOCK" >&2 || spades_die "pip install --require-hashes -r requirements/lock.txt failed"
        "$SPADES_PY" -m pip install --quiet --disable-pip-version-check --no-deps \
            --no-build-isolation -e "$SPADES_ROOT" >&2 || spades_die "pip install --no-deps -e . failed"
        echo "$hash" > "$stamp"
    fi
    export PATH="$SPADES_VENV/bin:$PATH"
    export VIRTUAL_ENV="$SPADES_VENV"
}

# ---------------------------------------------------------------- probes (need the venv)
# Exit 0 if a libpq connection with this URL succeeds.
spades_pg_connects() {
    "$SPADES_PY" - "$1" <<'PY' 2>/dev/null
import sys
import psycopg
psycopg.connect(sys.argv[1], connect_timeout=3).close()
PY
}

# Exit 0 if a PostgreSQL server answers on host:port (any auth outcome counts as "answers").
spades_pg_answers() {
    if command -v pg_isready >/dev/null; then
        pg_isready -q -h "$1" -p "$2" -t 3
        return
    fi
    "$SPADES_PY" - "$1" "$2" <<'PY' 2>/dev/null
import socket, sys
socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3).close()
PY
}

spades_redis_pings() {
    "$SPADES_PY" - "$1" <<'PY' 2>/dev/null
import sys
import redis
redis.Redis.from_url(sys.argv[1], socket_connect_timeout=2, socket_timeout=2).ping()
PY
}

# ---------------------------------------------------------------- PostgreSQL
spades_pg_urls_for_port() {
    export DATABASE_URL="postgresql://spades_app:spades_app@$SPADES_PG_HOST:$1/$SPADES_DB_NAME"
    export DATABASE_OWNER_URL="postgresql://spades_owner:spades_owner@$SPADES_PG_HOST:$1/$SPADES_DB_NAME"
}

# Idempotent: roles, database owned by spades_owner, default privileges for spades_app.
# Never grants on existing tables, so later REVOKEs (e.g. on the events table) stand.
spades_pg_bootstrap() {
    local port="$1"
    command -v psql >/dev/null || spades_die "psql not found (apt-get install -y postgresql-client)"
    local psql=(psql -X -q -v ON_ERROR_STOP=1 -h "$SPADES_PG_HOST" -p "$port" -U "$SPADES_PG_SUPERUSER")
    "${psql[@]}" -d postgres >/dev/null <<SQL || spades_die "could not create the roles/database as superuser '$SPADES_PG_SUPERUSER' on port $port"
DO \$\$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'spades_owner') THEN
        CREATE ROLE spades_owner LOGIN CREATEDB PASSWORD 'spades_owner';
    ELSE
        ALTER ROLE spades_owner LOGIN CREATEDB;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'spades_app') THEN
        CREATE ROLE spades_app LOGIN NOCREATEDB NOCREATEROLE PASSWORD 'spades_app';
    END IF;
END
\$\$;
SELECT format('CREATE DATABASE %I OWNER spades_owner', '$SPADES_DB_NAME')
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$SPADES_DB_NAME')\gexec
SQL
    "${psql[@]}" -d "$SPADES_DB_NAME" >/dev/null <<SQL || spades_die "could not set privileges in database $SPADES_DB_NAME"
ALTER DATABASE "$SPADES_DB_NAME" OWNER TO spades_owner;
ALTER SCHEMA public OWNER TO spades_owner;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO spades_app;
GRANT CONNECT, TEMPORARY ON DATABASE "$SPADES_DB_NAME" TO spades_app;
ALTER DEFAULT PRIVILEGES FOR ROLE spades_owner IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO spades_app;
ALTER DEFAULT PRIVILEGES FOR ROLE spades_owner IN SCHEMA public
    GRANT USAGE, SELECT ON SEQUENCES TO spades_app;
SQL
}

spades_pg_bindir() {
    local dir
    if [ -x /usr/local/bin/initdb ] && [ -x /usr/local/bin/pg_ctl ]; then
        dirname "$(readlink -f /usr/local/bin/initdb)"
        return 0
    fi
    # Highest installed major version first.
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -V -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

# Run a command as the OS user owning the local cluster (PostgreSQL refuses to run as root).
spades_as_pg_user() {
    if [ "$(id -u)" -ne 0 ]; then
        "$@"
    elif command -v runuser >/dev/null; then
        (cd / && runuser -u "$SPADES_PG_OS_USER" -- "$@")
    else
        (cd / && su "$SPADES_PG_OS_USER" -s /bin/sh -c "$(printf '%q ' "$@")")
    fi
}

spades_start_local_postgres() {
    local port="$SPADES_PG_LOCAL_PORT" bindir
    if ! bindir="$(spades_pg_bindir)"; then
        spades_apt_install postgresql
        bindir="$(spades_pg_bindir)" || spades_die "PostgreSQL binaries not found after installing"
    fi
    if [ "$(id -u)" -eq 0 ]; then
        SPADES_PG_OS_USER="${SPADES_PG_OS_USER:-postgres}"
        if ! id "$SPADES_PG_OS_USER" >/dev/null 2>&1; then
            spades_log "creating system user $SPADES_PG_OS_USER for the local cluster"
            useradd --system --no-create-home --shell /usr/sbin/nologin "$SPADES_PG_OS_USER" \
                || spades_die "could not create OS user $SPADES_PG_OS_USER"
        fi
    else
        SPADES_PG_OS_USER="$(id -un)"
    fi

    local pgdata="$SPADES_RUN_DIR/pgdata" pglog="$SPADES_RUN_DIR/postgres.log"
    mkdir -p "$SPADES_RUN_DIR"
    # The cluster's OS user must reach the folder (a checkout under /root may be closed).
    if ! spades_as_pg_user test -x "$SPADES_RUN_DIR" 2>/dev/null; then
        local alt
        alt="${TMPDIR:-/tmp}/spades-run-$(printf '%s' "$SPADES_ROOT" | sha256sum | cut -c1-12)"
        spades_log "$SPADES_PG_OS_USER cannot reach $SPADES_RUN_DIR; using $alt for the cluster"
        mkdir -p "$alt"
        chmod 755 "$alt"
        pgdata="$alt/pgdata"
        pglog="$alt/postgres.log"
    fi
    touch "$pglog"
    if [ "$(id -u)" -eq 0 ]; then
        chown "$SPADES_PG_OS_USER" "$pglog"
    fi

    if [ ! -s "$pgdata/PG_VERSION" ]; then
        spades_log "initialising a project-local PostgreSQL cluster in $pgdata"
        mkdir -p "$pgdata"
        chmod 700 "$pgdata"
        if [ "$(id -u)" -eq 0 ]; then
            chown "$SPADES_PG_OS_USER" "$pgdata"
        fi
        spades_as_pg_user "$bindir/initdb" -D "$pgdata" -U "$SPADES_PG_SUPERUSER" \
            --auth=trust --encoding=UTF8 --locale=C.UTF-8 >>"$pglog" 2>&1 \
            || spades_die "initdb failed, see $pglog"
    fi
    spades_log "starting PostgreSQL on $SPADES_PG_HOST:$port (log: $pglog)"
    spades_as_pg_user "$bindir/pg_ctl" -D "$pgdata" -l "$pglog" -w -t 60 \
        -o "-p $port -c listen_addresses=$SPADES_PG_HOST -c unix_socket_directories=''" \
        start >/dev/null || spades_die "PostgreSQL did not start, see $pglog"
    SPADES_STARTED_NAMES+=("PostgreSQL on port $port")
    SPADES_STARTED+=("spades_as_pg_user '$bindir/pg_ctl' -D '$pgdata' -m fast -w stop")
}

spades_ensure_postgres() {
    if [ -n "${DATABASE_URL:-}" ]; then
        if spades_pg_connects "$DATABASE_URL"; then
            if [ -z "${DATABASE_OWNER_URL:-}" ]; then
                spades_log "DATABASE_OWNER_URL unset: migrations and tests use DATABASE_URL"
                export DATABASE_OWNER_URL="$DATABASE_URL"
            fi
            spades_log "PostgreSQL: using DATABASE_URL"
            return 0
        fi
        spades_log "DATABASE_URL is set but does not connect; looking for a local PostgreSQL"
    fi
    local port
    if spades_pg_answers "$SPADES_PG_HOST" "$SPADES_PG_PORT"; then
        port="$SPADES_PG_PORT"
        spades_log "PostgreSQL: using the server on $SPADES_PG_HOST:$port"
    elif spades_pg_answers "$SPADES_PG_HOST" "$SPADES_PG_LOCAL_PORT"; then
        port="$SPADES_PG_LOCAL_PORT"
        spades_log "PostgreSQL: using the already running server on $SPADES_PG_HOST:$port (left running)"
    else
        spades_start_local_postgres
        port="$SPADES_PG_LOCAL_PORT"
    fi
    spades_pg_bootstrap "$port"
    spades_pg_urls_for_port "$port"
    spades_pg_connects "$DATABASE_URL" || spades_die "cannot connect as spades_app on port $port"
    spades_pg_connects "$DATABASE_OWNER_URL" || spades_die "cannot connect as spades_owner on port $port"
}

# ---------------------------------------------------------------- Redis
spades_ensure_redis() {
    if [ -n "${REDIS_URL:-}" ]; then
        if spades_redis_pings "$REDIS_URL"; then
            spades_log "Redis: using REDIS_URL"
            return 0
        fi
        spades_log "REDIS_URL is set but does not answer; looking for a local Redis"
    fi
    local url="redis://127.0.0.1:$SPADES_REDIS_PORT/0"
    local local_url="redis://127.0.0.1:$SPADES_REDIS_LOCAL_PORT/0"
    if spades_redis_pings "$url"; then
        spades_log "Redis: using the server on 127.0.0.1:$SPADES_REDIS_PORT"
    elif spades_redis_pings "$local_url"; then
        url="$local_url"
        spades_log "Redis: using the already running server on 127.0.0.1:$SPADES_REDIS_LOCAL_PORT (left running)"
    else
        command -v redis-server >/dev/null || spades_apt_install redis-server
        mkdir -p "$SPADES_RUN_DIR"
        local pidfile="$SPADES_RUN_DIR/redis.pid"
        spades_log "starting redis-server on 127.0.0.1:$SPADES_REDIS_LOCAL_PORT"
        redis-server --port "$SPADES_REDIS_LOCAL_PORT" --bind 127.0.0.1 --daemonize yes \
            --pidfile "$pidfile" --logfile "$SPADES_RUN_DIR/redis.log" \
            --dir "$SPADES_RUN_DIR" --save '' --appendonly no \
            || spades_die "redis-server did not start"
        url="$local_url"
        local _
        for _ in $(seq 50); do
            spades_redis_pings "$url" && break
            sleep 0.1
        done
        spades_redis_pings "$url" || spades_die "redis-server does not answer, see $SPADES_RUN_DIR/redis.log"
        SPADES_STARTED_NAMES+=("redis-server on port $SPADES_REDIS_LOCAL_PORT")
        SPADES_STARTED+=("spades_stop_pidfile '$pidfile'")
    fi
    export REDIS_URL="$url"
}

spades_stop_pidfile() {
    local pidfile="$1" pid _
    [ -f "$pidfile" ] || return 0
    pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null || return 0
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
}

# ---------------------------------------------------------------- browser (e2e tests)
# Playwright cannot download its own browser here: the e2e tests drive Debian's chromium
# (tests/e2e/web/conftest.py, $SPADES_CHROMIUM). Installed only when e2e tests exist.
spades_ensure_chromium() {
    find "$SPADES_ROOT/tests/e2e" -name 'test_*.py' 2>/dev/null | grep -q . || return 0
    if [ -n "${SPADES_CHROMIUM:-}" ] && [ -x "$SPADES_CHROMIUM" ]; then
        return 0
    fi
    command -v chromium >/dev/null || spades_apt_install chromium
    SPADES_CHROMIUM="$(command -v chromium)" || spades_die "chromium not found after installing"
    export SPADES_CHROMIUM
}

# ---------------------------------------------------------------- axe-core (e2e accessibility)
# tests/e2e/web/test_accessibility.py injects node_modules/axe-core/axe.min.js into each
# page. `npm ci` installs exactly package-lock.json (integrity checked), with no install
# scripts; skipped while the lock file is unchanged since the last install.
spades_ensure_axe() {
    [ -f "$SPADES_ROOT/package-lock.json" ] || return 0
    find "$SPADES_ROOT/tests/e2e" -name 'test_*.py' 2>/dev/null | grep -q . || return 0
    local stamp="$SPADES_ROOT/node_modules/.spades-lock.sha256" digest
    digest="$(sha256sum "$SPADES_ROOT/package-lock.json" | cut -d' ' -f1)"
    if [ -f "$SPADES_ROOT/node_modules/axe-core/axe.min.js" ] && [ -f "$stamp" ] \
        && [ "$(cat "$stamp")" = "$digest" ]; then
        return 0
    fi
    command -v npm >/dev/null || spades_apt_install nodejs npm
    spades_log "npm ci (axe-core, package-lock.json)"
    (cd "$SPADES_ROOT" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2) \
        || spades_die "npm ci failed (package-lock.json)"
    printf '%s\n' "$digest" >"$stamp"
}

# ---------------------------------------------------------------- docker-compose (layout test)
# Debian's docker-compose validates docker-compose.yml without a Docker engine; the layout
# test (tests/unit/test_process_layout.py) runs `docker-compose config` with it.
spades_ensure_docker_compose() {
    command -v docker-compose >/dev/null && return 0
    (spades_apt_install docker-compose) || spades_log "warning: could not install docker-compose; the compose check will be skipped"
}

# ---------------------------------------------------------------- nginx (proxy sample test)
# tests/unit/test_proxy_sample.py runs `nginx -t` on deploy/nginx/spades.conf. Debian's
# nginx package is unpacked into .run/nginx (apt-get download + dpkg -x): the binary
# only, no service started, nothing listening. Exports SPADES_NGINX.
spades_ensure_nginx() {
    if command -v nginx >/dev/null; then
        SPADES_NGINX="$(command -v nginx)"
    else
        local dir="$SPADES_RUN_DIR/nginx"
        if [ ! -x "$dir/usr/sbin/nginx" ] && command -v apt-get >/dev/null; then
            spades_log "unpacking Debian's nginx into .run/nginx (for the proxy sample test)"
            mkdir -p "$dir/debs"
            (cd "$dir/debs" && { apt-get download nginx >/dev/null 2>&1 \
                || { DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 \
                    && apt-get download nginx >/dev/null 2>&1; }; }) \
                && dpkg -x "$dir"/debs/nginx_*.deb "$dir" \
                || spades_log "warning: could not unpack nginx; the nginx -t check will be skipped"
        fi
        [ -x "$dir/usr/sbin/nginx" ] && SPADES_NGINX="$dir/usr/sbin/nginx"
    fi
    if [ -n "${SPADES_NGINX:-}" ]; then
        export SPADES_NGINX
    fi
    return 0
}

# ---------------------------------------------------------------- teardown
spades_stop_started_services() {
    local i
    for ((i = ${#SPADES_STARTED[@]} - 1; i >= 0; i--)); do
        spades_log "stopping ${SPADES_STARTED_NAMES[$i]}"
        eval "${SPADES_STARTED[$i]}" >/dev/null 2>&1 || true
    done
    SPADES_STARTED=()
    SPADES_STARTED_NAMES=()
}
