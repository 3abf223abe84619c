#!/usr/bin/env bash
# A CI job's webhook check with the edgectl emulator: no ngrok account, no network. The emulator
# serves the endpoint made from webhooks.yml on its traffic port and forwards what the policy lets
# through to the app (app.mjs); the job checks that a signed delivery arrives and that a bad
# signature and a request from outside the allow list are refused before the app sees them.
#
#   EDGECTL="node bin/edgectl.js" examples/ci/webhooks.sh     (default: edgectl on PATH)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
read -r -a EDGECTL <<< "${EDGECTL:-edgectl}"
SECRET=${GITHUB_WEBHOOK_SECRET:-ci-github-s3cret}
# The check signs with `edgectl webhook sign`: an edgectl without it cannot run it (and passing
# without checking anything would hide that).
if ! "${EDGECTL[@]}" help webhook sign > /dev/null 2>&1; then
  echo "FAIL: this edgectl has no \`webhook sign\` (and so no webhook schemes): the check cannot run" >&2
  exit 1
fi
work=$(mktemp -d)
cleanup() {
  kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
pids=()
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  grep '^traffic:' "$work/emulator.log" >&2 || true
  exit 1
}
wait_lines() { # file count: until the file has that many lines (10 s at most)
  for _ in $(seq 100); do [ "$(wc -l < "$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0; sleep 0.1; done
  fail "$1 did not get $2 line(s) in time"
}

node "$here/app.mjs" "$work/received.jsonl" > "$work/app.url" &
pids+=($!)
wait_lines "$work/app.url" 1
app=$(head -n1 "$work/app.url")

"${EDGECTL[@]}" emulator --port 0 --traffic-port 0 --upstream "https://app.internal=$app" \
  --log-requests "$work/requests.jsonl" > "$work/emulator.urls" 2> "$work/emulator.log" &
pids+=($!)
wait_lines "$work/emulator.urls" 2
export EDGECTL_BASE_URL EDGECTL_API_KEY=ci
EDGECTL_BASE_URL=$(sed -n 1p "$work/emulator.urls")
traffic=$(sed -n 2p "$work/emulator.urls")

id=$("${EDGECTL[@]}" endpoint create --url https://webhooks.example.com --traffic-policy-file "$here/webhooks.yml" -o json |
  node -e 'let s="";process.stdin.on("data",(c)=>(s+=c)).on("end",()=>console.log(JSON.parse(s).id))')
printf '%s' "$SECRET" | "${EDGECTL[@]}" endpoint webhook-verification replace "$id" --provider github --secret-stdin > /dev/null

# A sender given only a URL names the endpoint's host in the path (the traffic port's prefix).
hook="$traffic/__edgectl/endpoint/webhooks.example.com/hooks/github"
body='{"zen":"Keep it logically awesome.","hook_id":42}'

echo "1. a delivery signed with the endpoint's secret"
printf '%s' "$SECRET" | "${EDGECTL[@]}" webhook sign --provider github --body "$body" --url "$hook" --secret-stdin --send ||
  fail "the signed delivery was refused"

echo "2. the same body signed with another secret"
if printf 'not-the-secret' | "${EDGECTL[@]}" webhook sign --provider github --body "$body" --url "$hook" --secret-stdin --send; then
  fail "a bad signature got through"
fi

echo "3. a request from 203.0.113.7, outside the allow list"
status=$(curl -s -o "$work/refused.txt" -w '%{http_code}' -H 'X-Forwarded-For: 203.0.113.7' -d "$body" "$hook")
[ "$status" = 403 ] || fail "the request from outside the allow list got $status, not 403"
head -n1 "$work/refused.txt"

delivered=$(wc -l < "$work/received.jsonl")
[ "$delivered" -eq 1 ] || fail "the app received $delivered requests, not 1"
echo
echo "what the traffic port saw:"
grep '^traffic:' "$work/emulator.log"
echo
echo "ok: 1 delivered to the app; a bad signature and an address outside the allow list refused"
