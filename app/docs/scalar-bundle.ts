// The API reference renderer (@scalar/api-reference's standalone browser bundle), served by the app
// itself from node_modules: no CDN, so /docs works offline and behind strict egress rules.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const PACKAGE_DIR = path.join(process.cwd(), 'node_modules', '@scalar', 'api-reference');

let bundle: Promise<{ version: string; script: Buffer }> | undefined;

/** The bundle and its version (the version makes the script URL change with every upgrade). */
export function scalarBundle() {
  bundle ??= (async () => {
    const pkg = JSON.parse(await readFile(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
      version: string;
    };
    const script = await readFile(path.join(PACKAGE_DIR, 'dist', 'browser', 'standalone.js'));
    return { version: pkg.version, script };
  })();
  bundle.catch(() => {
    bundle = undefined;
  });
  return bundle;
}
