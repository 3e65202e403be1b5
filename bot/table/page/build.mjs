// Builds the page into dist/: the bundle and the stylesheet with a hash of their content
// in their names (Discord's proxy caches assets but not HTML, so a changed file must get
// a new name), and dist/index.html naming them. `npm run check` is the type check.
import {mkdir, readFile, rm, writeFile} from 'node:fs/promises';
import {basename} from 'node:path';
import * as esbuild from 'esbuild';

const DIST = 'dist';

await rm(DIST, {recursive: true, force: true});
// esbuild prints its own errors; its stack trace would add nothing.
const result = await esbuild.build({
  entryPoints: ['src/main.ts', 'src/style.css'],
  entryNames: 'assets/[name]-[hash]',
  outdir: DIST,
  bundle: true,
  minify: true,
  format: 'esm',
  // Discord's mobile apps run the page in the system web view (Safari 15 and newer).
  target: ['es2020', 'chrome100', 'safari15'],
  metafile: true,
  logLevel: 'warning',
}).catch(() => process.exit(1));

function output(entryPoint) {
  const found = Object.entries(result.metafile.outputs).find(
    ([, meta]) => meta.entryPoint === entryPoint,
  );
  if (!found) throw new Error(`esbuild wrote nothing for ${entryPoint}`);
  return `assets/${basename(found[0])}`;
}

const template = await readFile('src/index.html', 'utf8');
const html = template
  .replace('{{script}}', output('src/main.ts'))
  .replace('{{style}}', output('src/style.css'));
await mkdir(DIST, {recursive: true});
await writeFile(`${DIST}/index.html`, html);
for (const [name, meta] of Object.entries(result.metafile.outputs)) {
  console.log(`${name}  ${(meta.bytes / 1024).toFixed(1)} KB`);
}
