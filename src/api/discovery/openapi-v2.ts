/**
 * GET /openapi/v2: an empty Swagger 2.0 document. The schemas are published as OpenAPI v3
 * (./openapi.ts), which kubectl reads first. kubectl turns to v2 only for a kind that v3 does not
 * list, to validate it client-side; an empty document tells it the server has no schema for that
 * kind, so it skips validation and reports the kind as upstream does (`no matches for kind "X" in
 * version "g/v"`), applying the other documents of the file. A 404 here would instead fail the
 * whole file with `error validating data: the server could not find the requested resource`.
 */

// kubectl asks for the `@v1.0` type; kube-openapi answers with the `.v1.0` spelling, which Go's
// mime parser accepts.
const PROTOBUF_V2_ACCEPT = 'com.github.proto-openapi.spec.v2'
const PROTOBUF_V2_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf'

const emptySwagger = {
  swagger: '2.0',
  info: { title: 'Kubernetes', version: 'v1.32.0' },
  paths: {},
  definitions: {},
}

export function serveOpenapiV2(accept: string | null): Response {
  // The protobuf encoding of an empty openapi_v2.Document is zero bytes.
  if (accept?.includes(PROTOBUF_V2_ACCEPT))
    return new Response(new Uint8Array(0), { headers: { 'Content-Type': PROTOBUF_V2_TYPE } })
  return new Response(JSON.stringify(emptySwagger), {
    headers: { 'Content-Type': 'application/json' },
  })
}
