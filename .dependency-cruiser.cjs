/**
 * No import cycles anywhere in the code, lazy `import()` and `import type` edges included
 * (docs/architecture.md, "Boundaries"). oxlint keeps the zones (which folder may import which);
 * its import/no-cycle does not follow `import()`, so the cycle rule lives here.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle ties its modules into one unit: a lazy import() or a type-only import still does.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Keep `import type` edges, which TypeScript's own output would drop.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
