/** Requests to the JSON API's configuration routes (/api/admin/*, /api/profile/*) of a console server under test. */
import type { ConsoleServer } from "./console-server.ts";

export interface ApiAnswer {
  status: number;
  body: { ok: boolean; data?: any; error?: { code: string; message: string; issues?: Array<{ path: string; message: string }> } };
}

export interface ApiRequest {
  cookie?: string | null;
  /** A value sent as JSON, or `raw` text as it is. */
  body?: unknown;
  raw?: string;
  origin?: string;
  contentType?: string;
}

export function configApi(server: ConsoleServer) {
  return async function api(method: string, path: string, { cookie, body, raw, origin = server.url, contentType }: ApiRequest = {}) {
    const text = raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const response = await fetch(`${server.url}${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(text !== undefined ? { "content-type": contentType ?? "application/json", origin } : {}),
      },
      body: text,
    });
    const answer = await response.text();
    let parsed: ApiAnswer["body"];
    try {
      parsed = JSON.parse(answer) as ApiAnswer["body"];
    } catch {
      throw new Error(`${method} ${path} answered ${response.status} with no JSON: ${answer.slice(0, 300)}`);
    }
    return { status: response.status, body: parsed } satisfies ApiAnswer;
  };
}
