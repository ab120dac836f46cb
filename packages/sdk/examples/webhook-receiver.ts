import { createServer } from 'node:http';
import { webhooks, WebhookVerificationError } from '@content-workspace/sdk';

// The webhook's signing secret (whsec_…), shown once when the webhook was created.
const secret = process.env.CONTENT_WORKSPACE_WEBHOOK_SECRET ?? '';

const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    // Verify the body exactly as received: a re-serialized object would not match its signature.
    const event = await webhooks.verify(Buffer.concat(chunks), request.headers, secret);
    if (event.type === 'space.content-updated') {
      const { added, edited, removed } = event.data.pages; // narrowed by `type`
      console.log(`${event.space}: ${added.length} added, ${edited.length} edited, ${removed.length} removed`);
    } else {
      console.log(`${event.type} ${event.id}`);
    }
    response.writeHead(204).end(); // any 2xx; anything else is retried
  } catch (error) {
    response.writeHead(error instanceof WebhookVerificationError ? 400 : 500).end();
  }
});
server.listen(Number(process.env.PORT ?? 3000), () => console.log('listening'));
