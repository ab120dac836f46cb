import { keysetPage, newestFirst } from '../../db/pagination.js';
import { deleteTokenOfUser, insertToken, tokensOfUserQuery } from '../../auth/tokens.repository.js';
import { findUserVisibleTo } from '../../auth/users.repository.js';
import { newTokenLimits } from '../../auth/token-scope.js';
import { hashToken, newTokenSecret } from '../../auth/tokens.js';
import { invalidField, notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiCreatedToken, toApiToken } from './token.mapper.js';
import { toApiUser } from './user.mapper.js';

export const userHandlers = {
  async getAuthenticatedUser({ caller, app }) {
    return { status: 200, body: toApiUser(caller.user, app.urls) };
  },

  async getUserById({ caller, params, app }) {
    const user = await findUserVisibleTo(app.db, caller.user.id, params.userId, caller.organizationScope);
    if (!user) throw notFound('User');
    return { status: 200, body: toApiUser(user, app.urls) };
  },

  async listUserTokens({ caller, query, app }) {
    const page = await keysetPage(app.db, tokensOfUserQuery(app.db, caller.user.id), {
      keys: newestFirst(''),
      request: query,
      list: { operation: 'listUserTokens', within: caller.user.id },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map(toApiToken) } };
  },

  async createUserToken({ caller, body, app }) {
    const requested = body.expiresAt ? new Date(body.expiresAt) : null;
    if (requested && requested.getTime() <= Date.now()) throw invalidField('/body/expiresAt', 'must be in the future');
    const secret = newTokenSecret();
    const limits = newTokenLimits(caller, requested);
    const row = await insertToken(app.db, { userId: caller.user.id, label: body.label, tokenHash: hashToken(secret), ...limits });
    return { status: 201, body: toApiCreatedToken(row, secret) };
  },

  async deleteUserToken({ caller, params, app }) {
    const hash = await deleteTokenOfUser(app.db, caller.user.id, params.tokenId);
    if (!hash) throw notFound('Token');
    // Other instances drop it on the change notification; this one at once.
    app.tokens.invalidate(`t:${hash.toString('hex')}`);
    return { status: 205 };
  },
} satisfies AreaHandlers;
