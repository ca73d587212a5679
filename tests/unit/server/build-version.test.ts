import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildVersion } from '../../../scripts/build-version.ts';

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
