// Renders one pdfmake document definition to PDF bytes, off the server's event loop (layout is
// synchronous and can take seconds for a large document). Plain JavaScript: the server runs it as a
// worker thread whatever loads the server's TypeScript. Fonts are pdfmake's bundled Roboto (Latin,
// Greek, Cyrillic) and the standard Courier; nothing is fetched and no other local file is read.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const pdfmake = require('pdfmake');
const roboto = require('pdfmake/fonts/Roboto.js');

const COURIER = { normal: 'Courier', bold: 'Courier-Bold', italics: 'Courier-Oblique', bolditalics: 'Courier-BoldOblique' };
const readable = new Set([...Object.values(roboto.Roboto), ...Object.values(COURIER)]);
pdfmake.setFonts({ ...roboto, Courier: COURIER });
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => readable.has(path));

pdfmake.addTableLayouts({
  quote: {
    hLineWidth: () => 0,
    vLineWidth: (i) => (i === 0 ? 2 : 0),
    vLineColor: () => '#cccccc',
    paddingLeft: () => 10,
    paddingTop: () => 2,
    paddingBottom: () => 2,
  },
  code: {
    hLineWidth: () => 0,
    vLineWidth: () => 0,
    fillColor: () => '#f4f4f4',
    paddingLeft: () => 8,
    paddingRight: () => 8,
    paddingTop: () => 6,
    paddingBottom: () => 6,
  },
});

async function render(definition, withImages) {
  const document = withImages ? definition : { ...definition, images: {} };
  document.footer = (current, count) => (current === 1 ? null : { text: `${current} / ${count}`, alignment: 'center', fontSize: 8, color: '#888888', margin: [0, 24, 0, 0] });
  return pdfmake.createPdf(document).getBuffer();
}

const { definition } = workerData;
let bytes;
try {
  bytes = await render(definition, true);
} catch {
  // An image pdfkit cannot decode fails the whole document: render again with placeholders for all.
  const withoutImages = JSON.parse(JSON.stringify(definition), (key, value) =>
    value && typeof value === 'object' && typeof value.image === 'string' ? { text: '[image]', style: 'missing' } : value,
  );
  bytes = await render(withoutImages, false);
}
parentPort.postMessage(bytes);
