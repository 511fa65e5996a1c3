/** HTTP status codes for action error codes, for the JSON API routes. */
export function httpStatusOf(code: string): number {
  switch (code) {
    case "invalid_input":
      return 400;
    case "unauthenticated":
      return 401;
    case "forbidden":
    case "cross_site":
      return 403;
    case "run_not_found":
      return 404;
    case "payload_too_large":
      return 413;
    case "confirmation_required":
      return 428;
    case "rate_limited":
      return 429;
    case "already_decided":
    case "tool_call_not_pending":
      return 409;
    case "wrong_kind":
    case "wrong_agent":
    case "invalid_resume_data":
      return 422;
    case "unknown_agent":
    case "agent_failed":
      return 502;
    default:
      return 500;
  }
}
