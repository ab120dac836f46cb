// The browser side of single sign-on, outside /v1 and without a bearer token: the SAML response (or
// the provider being active) is the credential.
import { authnRequestRedirect, sameOriginRelayState, samlServiceUrls, verifySamlResponse } from './saml.js';
import { findActiveSamlProvider } from './saml.repository.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { signInWithSaml } from './sso.service.js';

export const ssoHandlers = {
  async startSamlLogin({ params, query, app }) {
    const relayState = query.RelayState === undefined ? undefined : sameOriginRelayState(app.config, query.RelayState, '/query/RelayState').href;
    const provider = await findActiveSamlProvider(app.db, params.organizationId, params.samlProviderId);
    if (!provider) throw notFound('SAML provider');
    const service = samlServiceUrls(app.urls, provider.organizationId, provider.id);
    const location = await authnRequestRedirect(provider, service, app.keys.samlServiceProvider, relayState);
    return { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' } };
  },

  async consumeSamlResponse({ params, body, app }) {
    const provider = await findActiveSamlProvider(app.db, params.organizationId, params.samlProviderId);
    if (!provider) throw notFound('SAML provider');
    // Checked before anything is written: a token only ever goes to this server's origin.
    const target = body.RelayState === undefined ? new URL(app.config.appUrl) : sameOriginRelayState(app.config, body.RelayState, '/body/RelayState');
    const service = samlServiceUrls(app.urls, provider.organizationId, provider.id);
    const assertion = await verifySamlResponse(provider, service, body.SAMLResponse);
    const token = await signInWithSaml(app.db, app.urls, provider, assertion);
    target.hash = `token=${token}`;
    return { status: 303, headers: { Location: target.href, 'Cache-Control': 'no-store' } };
  },
} satisfies AreaHandlers;
