#!/bin/sh
# The streaming replica: on its first start (empty data directory) it copies the primary with
# pg_basebackup -R (which writes standby.signal and primary_conninfo), then runs as a hot standby.
# Runs as the postgres user (compose sets `user: postgres`).
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until PGPASSWORD="$REPLICATION_PASSWORD" pg_basebackup -h "$PRIMARY_HOST" -U replicator -D "$PGDATA" -R -X stream; do
    echo "waiting for the primary at $PRIMARY_HOST"
    rm -rf "${PGDATA:?}"/*
    sleep 2
  done
  chmod 0700 "$PGDATA"
fi
exec postgres -c hot_standby=on -c hot_standby_feedback=on
