// Handlers are typed by operationId: their params, query, body and replies all come from the
// generated contract, and the map of every handler (areas/index.ts) must cover every operation.
import type { Response } from 'express';
import type { OperationAccess, operations } from '@content-workspace/contract';
import type { RuleData } from '../access/rules.js';
import type { ScopeAccess } from '../access/scopes.js';
import type { AppContext } from '../context.js';
import type { Caller } from '../auth/authenticate.js';

export type OperationId = keyof operations;

/** Operations the spec declares without bearer security (`x-access` scope `public`); their handlers may see no caller. */
export type PublicOperationId = { [K in OperationId]: OperationAccess[K]['scope'] extends 'public' ? K : never }[OperationId];

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type RuleDataOf<R> = R extends keyof RuleData ? RuleData[R] : never;

/**
 * What the dispatcher resolved from the operation's declared access before the handler ran: the
 * resource of its scope with the caller's role on it, and what its rules resolved.
 */
export type AccessFor<K extends OperationId> = ScopeAccess[OperationAccess[K]['scope']] &
  UnionToIntersection<RuleDataOf<OperationAccess[K]['rules'][number]>>;

type Op<K extends OperationId> = operations[K];
type NeverToEmpty<T> = [T] extends [never] ? Record<string, never> : T;

export type PathParams<K extends OperationId> = Op<K>['parameters'] extends { path: infer P } ? P : Record<string, never>;
export type QueryParams<K extends OperationId> = NeverToEmpty<NonNullable<Op<K>['parameters']['query']>>;
/** The JSON body, or the form of an operation that takes `application/x-www-form-urlencoded` (parsed into an object). */
export type RequestBody<K extends OperationId> =
  NonNullable<Op<K>['requestBody']> extends { content: { 'application/json': infer B } }
    ? B
    : NonNullable<Op<K>['requestBody']> extends { content: { 'application/x-www-form-urlencoded': infer F } }
      ? F
      : undefined;

type SuccessStatus = 200 | 201 | 202 | 204 | 205 | 302 | 303 | 307;
type ResponseFor<S, R> = R extends { content: { 'application/json': infer B } }
  ? { status: S; body: B; headers?: Record<string, string> }
  : R extends { content: Record<string, unknown> }
    ? { status: S; raw: { contentType: string; data: Buffer | string }; headers?: Record<string, string> }
    : { status: S; headers?: Record<string, string> };

/** What a handler returns: one of its operation's success responses. */
export type Reply<K extends OperationId> = {
  [S in Extract<keyof Op<K>['responses'], SuccessStatus>]: ResponseFor<S, Op<K>['responses'][S]>;
}[Extract<keyof Op<K>['responses'], SuccessStatus>];

export type HandlerInput<K extends OperationId> = {
  params: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
  caller: K extends PublicOperationId ? Caller | undefined : Caller;
  access: AccessFor<K>;
  app: AppContext;
  /** The response, for handlers that must notice a client that left (the import stops its fetches). */
  res: Response;
};

export type Handler<K extends OperationId> = (input: HandlerInput<K>) => Promise<Reply<K>>;

/** One handler per operation of the spec: a missing or mistyped handler fails `tsc`. */
export type HandlerMap = { [K in OperationId]: Handler<K> };

/** A resource area's handlers; `satisfies` types each one by its key. */
export type AreaHandlers = Partial<HandlerMap>;
