// A refused call's whole answer: the status and the documented error body (docs/design/access-model.md),
// so a per-file refusal test checks more than the status the access matrix already asserts.
import { expect } from 'vitest';

export function expectRefusal(result: { response: Response; error?: unknown }, code: number, message: string): void {
  expect({ status: result.response.status, body: result.error }).toEqual({ status: code, body: { error: { code, message } } });
}
