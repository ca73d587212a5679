import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Metafile } from 'esbuild';
import { missingRuntimePackages } from '../../../scripts/build-server.ts';
import { buildVersion, serverBuildVersion } from '../../../scripts/build-version.ts';

const root = mkdtempSync(join(tmpdir(), 'lab-version-'));
mkdirSync(join(root, 'src'));
writeFileSync(join(root, 'src', 'main.tsx'), 'render()');
writeFileSync(join(root, 'index.html'), '<div id="root"></div>');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the build's version", () => {
  it('is the same for the same inputs, and changes with a source, a VITE_ setting or an .env file', () => {
    const first = buildVersion(root, {});
    expect(first).toMatch(/^[0-9a-f]{12}$/);
    expect(buildVersion(root, { PATH: '/bin' })).toBe(first);
    expect(buildVersion(root, { VITE_PRICING_URL: 'https://lab.example/prices' })).not.toBe(first);

    writeFileSync(join(root, '.env.production'), 'VITE_MARKETING_URL=https://lab.example');
    const withEnvFile = buildVersion(root, {});
    expect(withEnvFile).not.toBe(first);
    writeFileSync(join(root, 'src', 'main.tsx'), 'render(); // changed');
    expect(buildVersion(root, {})).not.toBe(withEnvFile);
  });

  it('is VITE_BUILD_ID when given', () => {
    expect(buildVersion(root, { VITE_BUILD_ID: 'release-42' })).toBe('release-42');
  });
});

describe("the compiled server's version", () => {
  it('changes with a server source, and not with a client one', () => {
    mkdirSync(join(root, 'server'), { recursive: true });
    writeFileSync(join(root, 'server', 'main.ts'), 'listen()');
    const first = serverBuildVersion(root);
    writeFileSync(join(root, 'src', 'main.tsx'), 'render(app)');
    expect(serverBuildVersion(root)).toBe(first);
    writeFileSync(join(root, 'server', 'main.ts'), 'listen(8080)');
    expect(serverBuildVersion(root)).not.toBe(first);
  });
});

describe('the packages the compiled server needs', () => {
  const metafile = (paths: string[]): Metafile => ({
    inputs: {},
    outputs: { 'dist-server/main.js': { bytes: 0, inputs: {}, exports: [], imports: paths.map((path) => ({ path, kind: 'import-statement', external: true })) } },
  });

  it('are the imported packages that dependencies does not list, by package name', () => {
    const imports = ['node:fs', 'path', 'fastify', '@aws-sdk/client-s3', 'drizzle-orm/pglite', 'tsx/esm/api', '@vitejs/plugin-react'];
    expect(missingRuntimePackages(metafile(imports), { fastify: '5', '@aws-sdk/client-s3': '3', 'drizzle-orm': '0.45' })).toEqual(['@vitejs/plugin-react', 'tsx']);
  });
});
