// @content-workspace/sdk: a typed client for the Content Workspace API.
export { createClient, type ClientOptions } from './client.js';
export {
  createContentWorkspace,
  type ContentWorkspace,
  type Operation,
  type OperationArgs,
  type OperationOptions,
  type OperationParameters,
} from './operations.js';
export type { Operations } from './generated/operations.js';
export {
  collect,
  paginate,
  type ListItem,
  type ListOperation,
  type ListParams,
  type ListPath,
  type PaginateOptions,
} from './paginate.js';
export {
  ApiError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  ContentWorkspaceError,
  ForbiddenError,
  NotFoundError,
  PreconditionFailedError,
  RateLimitError,
  TimeoutError,
  UnauthorizedError,
  createApiError,
  type ErrorBody,
  type ErrorIssue,
} from './errors.js';
export type {
  CallInit,
  CallOptions,
  CallPromise,
  CallResult,
  ClientBase,
  ClientMethod,
  ContentWorkspaceClient,
  HttpMethod,
  ParseAs,
  PathsWithMethod,
  ResultOf,
  Schema,
  SuccessResult,
  ThrowingClient,
} from './types.js';
export {
  webhooks,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
  type WebhookVerificationFailure,
  type WebhookVerifyOptions,
} from './webhooks.js';
export { VERSION } from './version.js';
export type { components, operations, paths } from '@content-workspace/contract';
