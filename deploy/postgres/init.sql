-- Roles and database for docker-compose's postgres service (first start of its volume).
-- The same bootstrap as spades_pg_bootstrap in bin/lib/env.sh: see docs/operations.md.
CREATE ROLE spades_owner LOGIN CREATEDB PASSWORD 'spades_owner';
CREATE ROLE spades_app LOGIN NOCREATEDB NOCREATEROLE PASSWORD 'spades_app';
CREATE DATABASE spades OWNER spades_owner;
\connect spades
ALTER SCHEMA public OWNER TO spades_owner;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO spades_app;
GRANT CONNECT, TEMPORARY ON DATABASE spades TO spades_app;
ALTER DEFAULT PRIVILEGES FOR ROLE spades_owner IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO spades_app;
ALTER DEFAULT PRIVILEGES FOR ROLE spades_owner IN SCHEMA public
    GRANT USAGE, SELECT ON SEQUENCES TO spades_app;
