// The handler of every operation in the spec. `HandlerMap` requires all of them: an operation
// without a handler (or a handler for an operation that does not exist) fails `tsc`.
import type { HandlerMap } from '../http/handler.js';
import { changeRequestContentHandlers } from './change-request-content.routes.js';
import { changeRequestHandlers } from './change-requests.routes.js';
import { collectionHandlers } from './collections.routes.js';
import { grantHandlers } from './grants.routes.js';
import { inviteHandlers } from './invites.routes.js';
import { memberHandlers } from './members.routes.js';
import { contentHandlers } from './content.routes.js';
import { fileHandlers } from './files.routes.js';
import { organizationHandlers } from './organizations.routes.js';
import { samlHandlers } from './saml.routes.js';
import { spaceHandlers } from './spaces.routes.js';
import { ssoHandlers } from './sso.routes.js';
import { teamMemberHandlers } from './team-members.routes.js';
import { teamHandlers } from './teams.routes.js';
import { userHandlers } from './users.routes.js';

export const handlers: HandlerMap = {
  ...userHandlers,
  ...organizationHandlers,
  ...collectionHandlers,
  ...spaceHandlers,
  ...grantHandlers,
  ...memberHandlers,
  ...teamHandlers,
  ...teamMemberHandlers,
  ...inviteHandlers,
  ...contentHandlers,
  ...fileHandlers,
  ...samlHandlers,
  ...ssoHandlers,
  ...changeRequestHandlers,
  ...changeRequestContentHandlers,
};
