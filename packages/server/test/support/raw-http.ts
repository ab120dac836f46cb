// Requests the SDK cannot make: a body announced and never sent (or sent in part), to check what is
// answered before it.
import { request as httpRequest } from 'node:http';

/** Sends a request's headers announcing `length` bytes of body, and resolves with the answer without sending the body. */
export function postHeadersOnly(base: string, path: string, length: number, headers: Record<string, string> = {}, timeoutMs = 5000) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const request = httpRequest(new URL(path, base), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(length), ...headers } });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error('no answer before the body was sent'));
    }, timeoutMs);
    request.on('response', (response) => {
      clearTimeout(timer);
      resolve({ status: response.statusCode!, headers: response.headers });
      response.resume();
      request.destroy();
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.flushHeaders();
  });
}

/**
 * Starts an upload that announces `length` bytes and sends only the first chunk: its body is being read
 * until `abort()`. `started` resolves once the server has the first bytes.
 */
export function openUpload(base: string, path: string, token: string, length = 5 * 1024 * 1024) {
  const request = httpRequest(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(length), authorization: `Bearer ${token}` },
  });
  request.on('error', () => {});
  const started = new Promise<void>((resolve) => request.write('{"changes": [', () => setTimeout(resolve, 100)));
  return { started, abort: () => request.destroy() };
}
