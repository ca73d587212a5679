import { describe, expect, it } from 'vitest';
import { missing, slug, targetsOf } from '../../../scripts/check-doc-refs.ts';

const doc = `# Title

## 2. The error body
## 6a. Speed rules
\`\`\`
## 9. Inside a fence is no heading
\`\`\`
`;

describe('the document reference check', () => {
  it('finds numbered sections and GitHub anchors, not headings inside a fence', () => {
    const t = targetsOf(doc);
    expect([...t.sections]).toEqual(['2', '6a']);
    expect(t.anchors.has('2-the-error-body')).toBe(true);
    expect(slug('7. Configuration')).toBe('7-configuration');
  });

  it('says what a reference misses: the file, a section, an anchor', () => {
    const t = targetsOf(doc);
    expect(missing(null, undefined)).toEqual(['no such file']);
    expect(missing(t, ' §2, §6a')).toEqual([]);
    expect(missing(t, ' §2 and §9')).toEqual(['no section §9']);
    expect(missing(t, '#2-the-error-body')).toEqual([]);
    expect(missing(t, '#error-body')).toEqual(['no heading for #error-body']);
  });
});
