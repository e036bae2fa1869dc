#!/bin/sh
# The four requests of the service's interface (Stoplight's classic Docs API:
# the file update, docs.list, docs.release and docs.builds.download; docs/what-a-run-does.md,
# "What a run does"), as curl commands.
# Needs curl and jq (https://jqlang.github.io/jq/, Debian's jq package), and
# BASE_URL, TOKEN, PROJECT_ID, SPEC_JSON (a JSON file) and OUT (a zip path).
set -eu
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "curl-flow.sh needs $tool: install it (Debian: apt-get install $tool)" >&2; exit 127; }
done
auth="Authorization: Bearer $TOKEN"
json="Content-Type: application/json;charset=UTF-8"

# Update a file: content is the specification itself, embedded as JSON.
jq -n --slurpfile spec "$SPEC_JSON" '{content: $spec[0], branch: "main", commit_message: "Update from curl"}' |
  curl -sS --fail --compressed -X PUT -H "$auth" -H "$json" --data-binary @- \
    "$BASE_URL/projects/$PROJECT_ID/files/openapi.yml" >/dev/null

# List the docs of the project and note the doc id.
doc_id=$(curl -sS --fail --compressed -H "$auth" "$BASE_URL/docs.list?projectId=$PROJECT_ID" | jq -r '.docs[0].id')

# Publish a build under that doc.
build_id=$(curl -sS --fail --compressed -X POST -H "$auth" -H "$json" -d '{"setLive": true}' \
  "$BASE_URL/docs.release?id=$doc_id" | jq -r '.build.id')
echo "doc=$doc_id build=$build_id"

# Download the build (retried until the build has finished).
for i in 1 2 3 4 5 6 7 8 9 10; do
  code=$(curl -sS --compressed -H "$auth" -o "$OUT" -w '%{http_code}' "$BASE_URL/docs.builds.download?id=$build_id")
  [ "$code" = 200 ] && exit 0
  sleep 0.2
done
echo "build $build_id not ready" >&2
exit 1
