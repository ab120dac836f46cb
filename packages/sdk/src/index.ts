// @content-workspace/sdk: a typed client for the Content Workspace API.
export { createClient, type ClientOptions } from './client.js';
export { collect, paginate, type ListItem, type ListParams, type ListPath, type PaginateOptions } from './paginate.js';
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
  CallOptions,
  CallResult,
  ClientBase,
  ClientMethod,
  ContentWorkspaceClient,
  HttpMethod,
  PathsWithMethod,
  Schema,
  SuccessResult,
  ThrowingClient,
} from './types.js';
export { VERSION } from './version.js';
export type { components, operations, paths } from '@content-workspace/contract';
