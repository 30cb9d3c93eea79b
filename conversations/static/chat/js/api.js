// The REST API as the signed-in browser uses it: the session cookie authenticates, and every
// unsafe method carries the CSRF token Django expects.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export function csrfToken() {
  const cookie = document.cookie
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  // CSRF_COOKIE_HTTPONLY hides the cookie from scripts; the page's own token works as well.
  return document.querySelector('meta[name="csrf-token"]')?.content ?? "";
}

// DRF answers {"detail": "…"} or {field: ["…"]}: one readable sentence either way.
function errorText(body, status) {
  if (body && typeof body === "object") {
    if (typeof body.detail === "string") return body.detail;
    const first = Object.values(body)[0];
    if (Array.isArray(first) && first.length) return String(first[0]);
    if (typeof first === "string") return first;
  }
  return `The server answered ${status}.`;
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && method !== "HEAD") headers["X-CSRFToken"] = csrfToken();
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("The server cannot be reached. Check your connection.", 0);
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(errorText(data, response.status), response.status);
  return data;
}

export const conversationsApi = {
  list: (url = "/api/v1/conversations/?limit=50") => api("GET", url),
  rename: (id, title) => api("PATCH", `/api/v1/conversations/${encodeURIComponent(id)}/`, { title }),
  remove: (id) => api("DELETE", `/api/v1/conversations/${encodeURIComponent(id)}/`),
  messagesBefore: (id, beforeId) => {
    const query = `limit=50&before=${encodeURIComponent(beforeId)}`;
    return api("GET", `/api/v1/conversations/${encodeURIComponent(id)}/messages/?${query}`);
  },
};
