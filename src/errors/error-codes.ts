/**
 * Every public `error.code` the gateway answers with, in one place: its HTTP
 * status, its envelope `type` and what it means. The error tables of docs/errors.md
 * list exactly these (a test holds the two together).
 *
 * Two codes stand for a family: `upstream_invalid_request` (400) and
 * `upstream_rate_limited` (429) are replaced by the upstream's own code when
 * it gave one (`context_length_exceeded`, `rate_limit_exceeded`, ...), so an
 * OpenAI client sees the code it knows; `details.upstream_code` keeps it too.
 */

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'overloaded_error'
  | 'upstream_error'
  | 'server_error';

export interface ErrorCodeSpec {
  status: number;
  /** Defaults by status: 401 authentication, 403 permission, 404 not found, 429 rate limit, 503 overloaded, 5xx server, else invalid request. */
  type?: ErrorType;
  meaning: string;
}

export const ERROR_CODES = {
  invalid_json: { status: 400, meaning: 'The body is not valid JSON.' },
  json_too_deep: { status: 400, meaning: 'The body nests objects and arrays more than 128 levels deep.' },
  invalid_parameter: { status: 400, meaning: 'A field is missing, of the wrong type or out of range; `param` names it.' },
  unsupported_parameter: { status: 400, meaning: 'The model or its family does not take this parameter or value, or the gateway does not serve it (a hosted tool, a paid service tier, state stored on the upstream account); `param` names it.' },
  max_tokens_out_of_range: { status: 400, meaning: '`max_tokens` is above what the model can produce.' },
  model_not_supported_on_endpoint: { status: 400, meaning: 'The model does not serve this endpoint.' },
  invalid_body_encoding: { status: 400, meaning: 'A compressed body could not be decoded.' },
  invalid_multipart: { status: 400, meaning: 'A multipart body could not be read.' },
  too_many_files: { status: 400, meaning: 'A multipart body holds more files than the endpoint takes.' },
  invalid_request: { status: 400, meaning: 'The request line or path could not be read (malformed percent-encoding, say).' },
  request_timeout: { status: 408, meaning: 'The request did not arrive in time.' },
  request_header_fields_too_large: { status: 431, meaning: 'The request headers are too large (16 KB in all).' },
  request_aborted: { status: 400, meaning: 'The client closed the connection while sending the body.' },
  invalid_prompt: { status: 400, meaning: 'A reasoning model refused the prompt under its usage policies.' },
  remix_not_supported: { status: 400, meaning: 'The video model cannot remix.' },
  protocol_bridge_unsupported: { status: 400, meaning: 'A Responses request on a stateless-bridge route asks for state (`store: true`, `previous_response_id`, ...) or a field the bridge cannot carry; nothing was sent upstream.' },
  previous_response_not_found: { status: 400, meaning: '`previous_response_id` names no response this key stored through the gateway (unknown, another key\'s, expired, deleted, created with `store: false` or on a stateless-bridge route), or a response it continues is gone; nothing was sent upstream.' },
  invalid_catalog: { status: 400, meaning: 'A catalog edit (admin API) cannot be served; the message names the field, and the catalog in force stays.' },
  query_too_complex: { status: 400, meaning: 'A GraphQL document is over a depth, alias, token or cost limit; `details` names the limit.' },
  missing_required_parameter: { status: 400, meaning: 'A file upload lacks its `purpose` or its file bytes; `param` names which.' },
  purpose_not_supported: { status: 400, meaning: 'The file purpose is not one the gateway takes: use `user_data` or `vision`.' },
  executable_file_not_allowed: { status: 400, meaning: 'The uploaded file is a program (by its name or its first bytes); no purpose takes executables.' },
  unsupported_file_type: { status: 400, meaning: 'A `vision` file is not a PNG, JPEG, GIF or WebP image (judged by its bytes, not its name).' },
  invalid_image: { status: 400, meaning: 'A `/v1/decisions` image is not a base64 data URL of a PNG, JPEG or WebP image (a remote URL, a file id, audio or video, another image type, malformed base64, bytes that are not the type it names, or a header that cannot be read); `param` names the image.' },
  image_too_large: { status: 400, meaning: 'A `/v1/decisions` image is over 4 MiB decoded or 16 million pixels, or the images are over 8 MiB decoded in all; `details` gives the size and the limit.' },
  search_backend_not_found: { status: 400, meaning: '`backend` names no configured search backend (by id or name) and no configured provider; the message lists those configured.' },
  search_backend_unsupported: { status: 400, meaning: 'No search backend that could be chosen offers what the request needs (`include_answer`, `search_depth: advanced`); the message names what it lacks.' },
  invalid_question: { status: 400, meaning: 'A decision question is malformed or out of range (ids, 1 to 64 questions, 2 to 255 options, 2 to 10 levels, no criteria on noul); `param` names the field.' },
  images_not_supported: { status: 400, meaning: 'The decision model judges text and JSON only and takes no images.' },
  state_too_large: { status: 400, meaning: "A decision's `state` is over the model's `max_state_bytes` (image-capable models) or its prompt token limit." },
  question_generation_disabled: { status: 400, meaning: 'Automatic question generation is off on this gateway; send explicit `questions`.' },
  generator_not_capable: { status: 400, meaning: 'The question generator is not set, or does not declare structured output (or vision, for a request with images).' },
  upstream_invalid_request: { status: 400, meaning: "The upstream refused the request as invalid (the upstream's own code replaces this one when it gave one)." },
  missing_api_key: { status: 401, meaning: 'No `Authorization: Bearer` key was sent.' },
  invalid_api_key: { status: 401, meaning: 'The key is unknown, expired or revoked.' },
  invalid_admin_token: { status: 401, meaning: 'The admin token is wrong.' },
  metrics_token_required: { status: 401, meaning: '`/metrics` on the public port needs the metrics token (`GATEWAY_METRICS_TOKEN`) or the admin token as a bearer token; or scrape it on `GATEWAY_OPS_PORT`.' },
  origin_not_allowed: { status: 403, meaning: "`/mcp` was called from a web page whose `Origin` is neither the gateway's own nor in `GATEWAY_MCP_ALLOWED_ORIGINS`." },
  admin_disabled: { status: 403, meaning: 'The admin API is off (no `GATEWAY_ADMIN_TOKEN`).' },
  credential_not_allowed: { status: 403, meaning: 'A temporary credential cannot mint, list or revoke credentials; use the key that minted it.' },
  model_not_allowed: { status: 403, meaning: 'The key may not use this model or route.' },
  mcp_tool_not_allowed: { status: 403, meaning: "The key's (or temporary credential's) `mcp_tools` allowlist does not allow this MCP tool, or any tool of the server whose resources or prompts were asked for." },
  domain_not_allowed: { status: 403, meaning: "A search's `include_domains` names only domains outside the key's (or temporary credential's) search domain allowlist." },
  not_found: { status: 404, meaning: 'No such route.' },
  decisions_disabled: { status: 404, meaning: 'The decisions endpoint is turned off on this gateway (`GATEWAY_DECISIONS_ENABLED`).' },
  model_not_found: { status: 404, meaning: 'No model or route policy of that name (or it is disabled).' },
  provider_not_found: { status: 404, meaning: 'No provider channel of that name in the catalog (admin API).' },
  mcp_tool_not_found: { status: 404, meaning: 'No MCP tool, prompt or resource of that name: its server is not configured (or is disabled), or does not offer it.' },
  mcp_server_not_found: { status: 404, meaning: 'No MCP server of that name in the catalog (admin API).' },
  usage_record_not_found: { status: 404, meaning: 'No usage record of that id for this key.' },
  video_not_found: { status: 404, meaning: 'No video task of that id for this key.' },
  file_not_found: { status: 404, meaning: 'No file of that id for this key (or it expired or was deleted).' },
  response_not_found: { status: 404, meaning: 'No stored response of that id for this key (or it expired, was deleted, or was created with `store: false` or on a stateless-bridge route).' },
  content_not_available: { status: 404, meaning: 'The video model has no content download.' },
  key_not_found: { status: 404, meaning: 'No API key of that id (admin API).' },
  account_not_found: { status: 404, meaning: 'No account of that id (admin API).' },
  credential_not_found: { status: 404, meaning: 'No temporary credential of that id minted by this key.' },
  budget_not_found: { status: 404, meaning: 'No budget of that id (admin API), or it was removed.' },
  method_not_allowed: { status: 405, meaning: 'The route does not take this method; `Allow` lists those it takes.' },
  video_not_ready: { status: 409, meaning: 'The video is not completed yet.' },
  request_body_too_large: { status: 413, meaning: 'The body (after decompression), the images it gives by URL (for Gemini, which the gateway downloads), or what the upstream received is too large; or an embeddings input is over the model\'s token limit (chunk it).' },
  file_too_large: { status: 413, meaning: 'An uploaded file is over its limit.' },
  unsupported_media_type: { status: 415, meaning: 'The body is not UTF-8 JSON, plain or gzip/deflate/br encoded; or an admin write\'s body is not declared `Content-Type: application/json`.' },
  range_not_satisfiable: { status: 416, meaning: 'The `Range` asked for starts past the end of the file; `Content-Range` gives its size.' },
  insufficient_balance: { status: 402, meaning: "The account's wallet cannot cover the call's worst-case cost (its hold); nothing was sent upstream. Top up the wallet (admin API) or lower `max_tokens`." },
  budget_exceeded: { status: 402, meaning: 'A hard budget on the key, its project, its member or the account would be passed by the call\'s worst-case cost; `details` names the budget, its period and what is left. Nothing was sent upstream.' },
  nothing_to_refund: { status: 409, meaning: 'The request has no settled charge left to refund (not charged, refunded already, or its account was not under spend control when it ran).' },
  mcp_server_exists: { status: 409, meaning: 'An MCP server of that name is in the catalog already (admin API); edit it, or remove it first.' },
  idempotency_key_reused: { status: 409, meaning: 'The Idempotency-Key was used with a different request in the last 24 hours; use a new key.' },
  idempotency_request_in_progress: { status: 409, meaning: 'The first request with this Idempotency-Key is still running; retry after `Retry-After` for its answer.' },
  too_many_subscriptions: { status: 429, meaning: 'The API key already has as many GraphQL operations open over graphql-ws as it may; end one first.' },
  subscription_too_slow: { status: 429, meaning: 'A GraphQL subscriber left too many events unread; its subscription was ended. Subscribe again.' },
  too_many_failed_authentications: { status: 429, type: 'rate_limit_error', meaning: 'Too many requests with an invalid API key came from this client address this minute (`GATEWAY_AUTH_FAILURES_PER_MINUTE`); its keys are not checked until `Retry-After`. A valid key the gateway has cached is still served.' },
  rate_limit_exceeded: { status: 429, type: 'rate_limit_error', meaning: 'A rate limit of the gateway (requests or tokens per minute, per key, account or model) is reached; the message names it, `Retry-After` says when to retry.' },
  upstream_rate_limited: { status: 429, type: 'rate_limit_error', meaning: "The upstream is rate limiting (the upstream's own code replaces this one when it gave one); `Retry-After` is kept." },
  internal_error: { status: 500, meaning: 'A gateway bug; report the request id.' },
  model_removed: { status: 500, meaning: "A task's model is no longer in the catalog." },
  provider_not_supported: { status: 501, meaning: "The route's provider type does not speak this endpoint's protocol." },
  upstream_error: { status: 502, type: 'upstream_error', meaning: 'The upstream failed.' },
  upstream_unreachable: { status: 502, type: 'upstream_error', meaning: 'The upstream could not be reached.' },
  upstream_stream_interrupted: { status: 502, type: 'upstream_error', meaning: 'The upstream stream ended before the answer was complete.' },
  upstream_stream_error: { status: 502, type: 'upstream_error', meaning: 'The upstream reported an error in the middle of a stream.' },
  mcp_server_error: { status: 502, type: 'upstream_error', meaning: "An upstream MCP server answered with a JSON-RPC error; its code and message are passed on, prefixed with the server's name." },
  upstream_auth_failed: { status: 502, type: 'upstream_error', meaning: "The gateway's upstream credential was refused (the operator's to fix)." },
  upstream_model_not_found: { status: 502, type: 'upstream_error', meaning: 'The upstream does not know the model a route names (the operator\'s to fix).' },
  upstream_quota_exhausted: { status: 502, type: 'upstream_error', meaning: "The gateway's upstream account is out of quota (the operator's to fix)." },
  generated_questions_unusable: { status: 502, type: 'upstream_error', meaning: "The generated decision questions failed the checks explicit ones pass; the generation's charge was refunded (`details.question_generation` names its record). Retry, or send explicit `questions`." },
  submission_interrupted: { status: 502, type: 'upstream_error', meaning: 'The upstream took too long to accept a video task; nothing was charged.' },
  gateway_overloaded: { status: 503, meaning: 'The gateway is at its concurrency limit; retry with backoff.' },
  gateway_shutting_down: { status: 503, meaning: 'The instance is draining; retry on another or in a moment.' },
  file_dereference_busy: { status: 503, meaning: 'The files named by id in Responses calls being sent upstream right now fill the instance\'s byte budget for them; nothing was read or sent. Retry after `Retry-After` seconds, or upload smaller files.' },
  file_storage_unavailable: { status: 503, type: 'server_error', meaning: 'The file storage (disk or S3) failed while storing or reading a file; retry in a moment.' },
  rate_limit_unavailable: { status: 503, type: 'server_error', meaning: 'Rate limits are configured to fail closed and Redis, which counts them, is unreachable; retry in a moment.' },
  spend_control_unavailable: { status: 503, type: 'server_error', meaning: 'The account is under spend control and the hold for the call could not be placed (the database did not answer); nothing was sent upstream. Retry in a moment.' },
  key_check_unavailable: { status: 503, type: 'server_error', meaning: 'The API key could not be checked because the database did not answer, and it was not verified within the last hour on this instance. Retry in a moment.' },
  search_unavailable: { status: 503, type: 'server_error', meaning: 'No search backend is configured; the operator adds them under `search.backends`.' },
  upstream_overloaded: { status: 503, type: 'upstream_error', meaning: 'The upstream is overloaded; retry with backoff.' },
  upstream_timeout: { status: 504, type: 'upstream_error', meaning: 'The upstream did not answer in time.' },
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Codes of a video task's `error` object (`status: failed` or `expired`).
 * They are not HTTP answers: the task read itself succeeds. An upstream that
 * names its own failure code keeps it; `video_generation_failed` stands in
 * when it names none.
 */
export const TASK_ERROR_CODES = {
  video_generation_failed: 'The upstream reported that the generation failed.',
  upstream_error: 'The upstream refused the task when it was polled.',
  submission_failed: 'The upstream refused the submission; nothing was charged.',
  submission_interrupted: 'The gateway stopped while submitting the task; nothing was charged.',
  generation_timeout: "The upstream did not finish within the model's time-out; the charge was refunded.",
  expired: 'The upstream expired the task before it finished; the charge was refunded.',
} as const satisfies Record<string, string>;

export type TaskErrorCode = keyof typeof TASK_ERROR_CODES;

export function errorType(code: ErrorCode): ErrorType {
  const spec: ErrorCodeSpec = ERROR_CODES[code];
  return spec.type ?? typeByStatus(spec.status);
}

function typeByStatus(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 503) return 'overloaded_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
