#!/usr/bin/env bash
# `npm start` with only AUTH_SECRET, SECRETS_KEY and PORT set serves the API on the embedded
# database, and the CLI creates two tenants while it runs.
set -euo pipefail
dir=$(mktemp -d)
chmod 755 "$dir" # the embedded PostgreSQL runs as the postgres user when CI is root
port=3917
log="$dir/server.log"
cleanup() { [ -n "${pid:-}" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT

env -i PATH="$PATH" HOME="$HOME" AUTH_SECRET="$(openssl rand -base64 32)" SECRETS_KEY="$(openssl rand -base64 32)" PORT=$port \
  DATA_DIR="$dir/data" npm start >"$log" 2>&1 &
pid=$!
t0=$(date +%s%N)
for _ in $(seq 1 600); do
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "server exited"; exit 1; }
  sleep 0.1
done
curl -sf "http://127.0.0.1:$port/api/health" | grep -q '"ok"' || { cat "$log"; echo "health never answered"; exit 1; }
echo "npm start: healthy after $(( ($(date +%s%N) - t0) / 1000000 )) ms (cold, embedded PostgreSQL created)"

for n in 1 2; do
  out=$(DATA_DIR="$dir/data" npm run -s cli -- tenant create --name "Smoke $n" --admin-email "smoke$n@example.test" --admin-password "smoke-password-$n" --json)
  tenant=$(node -e 'const o=JSON.parse(process.argv[1]); process.stdout.write(o.tenant_id)' "$out")
  key=$(node -e 'const o=JSON.parse(process.argv[1]); process.stdout.write(o.api_key)' "$out")
  status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/bookings" -H "X-Tenant-ID: $tenant" -H "Authorization: Bearer $key")
  [ "$status" = 200 ] || { echo "GET /bookings for tenant $n answered $status"; cat "$log"; exit 1; }
  echo "tenant $n created by the CLI while the server runs; its API key works ($status)"
done
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/bookings")
[ "$status" = 400 ] || { echo "expected 400 without X-Tenant-ID, got $status"; exit 1; }

# The assistant's tools (MCP) through the built app: listed with the last tenant's key, refused without one.
mcp=(-X POST "http://127.0.0.1:$port/api/v1/mcp" -H 'Content-Type: application/json'
  -H 'Accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
tools=$(curl -s "${mcp[@]}" -H "X-Tenant-ID: $tenant" -H "Authorization: Bearer $key")
grep -q '"name":"book_slot"' <<<"$tools" || { echo "POST /api/v1/mcp tools/list answered: $tools"; cat "$log"; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' "${mcp[@]}" -H "X-Tenant-ID: $tenant")
[ "$status" = 401 ] || { echo "expected 401 from /api/v1/mcp without a credential, got $status"; exit 1; }
echo "the assistant's tools answer over MCP with a key, and 401 without"

# docs/decisions.md "Security": a page forbids framing and sniffing; HSTS in production.
headers=$(curl -s -D - -o /dev/null "http://127.0.0.1:$port/login")
for h in "x-content-type-options: nosniff" "x-frame-options: DENY" "strict-transport-security:"; do
  grep -qi "^$h" <<<"$headers" || { echo "GET /login lacks the header '$h'"; echo "$headers"; exit 1; }
done
# The page's Content-Security-Policy: nonce-based scripts, and no framing.
csp=$(grep -i '^content-security-policy:' <<<"$headers")
for part in "frame-ancestors 'none'" "script-src 'self' 'nonce-" "default-src 'self'"; do
  grep -qF "$part" <<<"$csp" || { echo "GET /login: the Content-Security-Policy lacks \"$part\": $csp"; exit 1; }
done
echo "pages carry the security headers"

# docs/decisions.md "Security": rotating X-Forwarded-For never escapes the per-address login limit (50 failures).
limited=0
for i in $(seq 1 55); do
  status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/api/v1/auth/login" \
    -H 'Content-Type: application/json' -H "X-Forwarded-For: 10.9.$i.1" \
    -d "{\"email\":\"nobody$i@example.test\",\"password\":\"wrong\"}")
  [ "$status" = 429 ] && limited=$((limited + 1))
done
[ "$limited" -ge 5 ] || { echo "a new X-Forwarded-For per request escaped the login limit ($limited of 55 refused)"; exit 1; }
echo "the login limit counts the peer address, not X-Forwarded-For ($limited of 55 refused)"
echo "smoke test passed"
