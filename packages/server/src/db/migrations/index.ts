// Every migration, by name. Names sort in the order they run: `YYYYMMDDTHHMMSS_name`.
// A static map (rather than a folder scan) works the same under tsx, tsc output and bundlers.
import type { Migration } from 'kysely';
import * as identity from './20261121T200000_identity.js';
import * as spacesAndAccess from './20261121T210000_spaces_and_access.js';
import * as listingIndexes from './20261121T220000_listing_indexes.js';
import * as people from './20261122T010000_people.js';
import * as tokenNotifications from './20261122T030000_token_notifications.js';
import * as contentStore from './20261122T000000_content_store.js';
import * as saml from './20261122T020000_saml.js';
import * as changeRequests from './20261122T040000_change_requests.js';
import * as contentGarbage from './20261122T050000_content_garbage.js';
import * as tokenScope from './20261122T060000_token_scope.js';
import * as revisionPdfs from './20261124T130000_revision_pdfs.js';
import * as rateLimits from './20261124T140000_rate_limits.js';
import * as comments from './20261124T100000_comments.js';
import * as sites from './20261124T110000_sites.js';
import * as openapiSpecs from './20261124T150000_openapi_specs.js';
import * as translationSettings from './20261124T150100_translation_settings.js';
import * as customFields from './20261124T150200_custom_fields.js';
import * as searchAndLinks from './20261124T150300_search_and_links.js';
import * as searchTitles from './20261124T171000_search_titles.js';
import * as parsedBodies from './20261128T010000_parsed_bodies.js';
import * as siteHostnameVerification from './20261128T020000_site_hostname_verification.js';
import * as eventsAndWebhooks from './20261128T030000_events_and_webhooks.js';
import * as idempotencyKeys from './20261128T070000_idempotency_keys.js';
import * as siteRedirectsFeedbackInsights from './20261129T030000_site_redirects_feedback_insights.js';
import * as siteSocialImages from './20261201T020000_site_social_images.js';

export const migrations: Record<string, Migration> = {
  '20261121T200000_identity': identity,
  '20261121T210000_spaces_and_access': spacesAndAccess,
  '20261121T220000_listing_indexes': listingIndexes,
  '20261122T010000_people': people,
  '20261122T030000_token_notifications': tokenNotifications,
  '20261122T000000_content_store': contentStore,
  '20261122T020000_saml': saml,
  '20261122T040000_change_requests': changeRequests,
  '20261122T050000_content_garbage': contentGarbage,
  '20261122T060000_token_scope': tokenScope,
  '20261124T130000_revision_pdfs': revisionPdfs,
  '20261124T140000_rate_limits': rateLimits,
  '20261124T100000_comments': comments,
  '20261124T110000_sites': sites,
  '20261124T150000_openapi_specs': openapiSpecs,
  '20261124T150100_translation_settings': translationSettings,
  '20261124T150200_custom_fields': customFields,
  '20261124T150300_search_and_links': searchAndLinks,
  '20261124T171000_search_titles': searchTitles,
  '20261128T010000_parsed_bodies': parsedBodies,
  '20261128T020000_site_hostname_verification': siteHostnameVerification,
  '20261128T030000_events_and_webhooks': eventsAndWebhooks,
  '20261128T070000_idempotency_keys': idempotencyKeys,
  '20261129T030000_site_redirects_feedback_insights': siteRedirectsFeedbackInsights,
  '20261201T020000_site_social_images': siteSocialImages,
};
