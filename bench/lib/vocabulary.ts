// Words of documentation prose for the benchmarks' generated pages (bench/lib/sql-pages.ts): the function
// words every sentence has, then the words a product's docs are made of, roughly from the most to the
// least frequent. Picked with a skewed draw (a few very common, a long tail of rare ones), so that a
// typed prefix matches many pages ("co", "se") or a handful ("webh", "idemp"), as on a real site.
export const FUNCTION_WORDS = 'the a to of and in is for you that it with on this can be as your are or by from an if when not each which at all will use has its only'.split(' ');

export const DOC_WORDS = `
page space user file server request token content change search site section link team member role
access setting option value field name type list item text block table image code example default
create update delete read write open close start stop run build deploy install configure enable disable
add remove move copy rename publish share invite sign return send receive check set get load save
project account organization workspace collection document draft revision history version release branch
merge conflict review comment reply reaction mention notification email message event webhook payload
header body query parameter path address domain hostname redirect cookie session login password secret
key certificate signature permission owner admin editor reader guest viewer audience visitor customer
api client library package module plugin integration extension script command terminal shell console
error warning status response code limit rate quota timeout retry backoff cache index database table
column row record schema migration backup restore export import archive upload download stream buffer
format markdown heading paragraph list quote hint card tab tabs expandable embed video diagram math
title description label icon emoji cover logo color theme font layout sidebar navigation footer menu
button dialog form input field checkbox select toggle search result snippet filter sort order group
page view visit analytics insight feedback rating score report chart metric dashboard trend summary
language locale translation variant version audience segment condition claim rule policy scope grant
billing plan invoice payment subscription trial seat license usage credit refund tax currency price
device browser mobile desktop tablet screen keyboard shortcut focus scroll click hover tooltip popup
security encryption authentication authorization identity provider saml oauth scim directory single
performance latency throughput memory processor worker queue job schedule cron batch task pipeline
network proxy gateway firewall region zone cluster node container image volume instance replica
monitoring logging tracing alert incident outage uptime health probe readiness liveness dashboard
tutorial guide reference overview concept quickstart introduction walkthrough recipe checklist glossary
architecture design pattern principle convention standard specification contract endpoint operation
automatically manually quickly safely directly usually always never often already instead together
available required optional public private internal external global local remote shared personal
new old first last next previous current latest stable beta deprecated experimental legacy custom
simple advanced basic complete partial full empty valid invalid secure unique multiple several
webhook idempotency pagination cursor keyset throttling sanitizer highlighter renderer serializer
validator dispatcher scheduler resolver tokenizer stemmer crawler indexer bundler compiler transpiler
kubernetes terraform docker postgres redis nginx github gitlab bitbucket slack discord jira linear
typescript javascript python golang rust ruby java kotlin swift graphql openapi yaml json xml csv
onboarding offboarding provisioning deprovisioning troubleshooting debugging profiling benchmarking
`.trim().split(/\s+/);
