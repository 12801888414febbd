/**
 * Two projects: `parallel`, the files that run side by side in the workers,
 * and `serial`, the few that run one after another in the main process while
 * no other file runs (SERIAL_FILES says why each is there). `maxWorkers` is 4 on two
 * cores: most files wait on sockets, databases and timers, not on the CPU (with 3, a fifth
 * of two cores stayed idle).
 */

// Files that must not run beside others.
const SERIAL_FILES = [
  // Drives Chromium: a browser's CPU beside other files slows them all, and its own page timings with them.
  'test/console/console.test.ts',
];

const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // The simulator package runs from its sources in tests, as tsconfig.json's `paths` reads it.
  moduleNameMapper: { '^@model-gateway/simulator$': '<rootDir>/packages/simulator/src/index.ts' },
  setupFiles: ['reflect-metadata'],
  // Every spy is put back before the next test (and at the end of each file), so none leaks into another test.
  restoreMocks: true,
  // Once per run: the PGlite template, the run's name for its PostgreSQL template, and that template dropped.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
const roots = ['<rootDir>/src', '<rootDir>/test', '<rootDir>/packages/simulator/test'];
const serialPaths = SERIAL_FILES.map((f) => `<rootDir>/${f}`);

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: 4,
  // A worker keeps what each file loaded (every file gets the gateway's modules and WebAssembly anew), and
  // past a few hundred MB its collections slow every later file: one is replaced once its heap passes this.
  workerIdleMemoryLimit: '300MB',
  // A worker's first gateway loads and compiles the whole gateway and PGlite's WebAssembly: over 30 s
  // for a hook when several workers start at once on a loaded machine. A hang still fails, later.
  testTimeout: 60000,
  projects: [
    { ...shared, displayName: 'parallel', roots, testMatch: ['**/*.test.ts'], testPathIgnorePatterns: ['/node_modules/', ...SERIAL_FILES.map((f) => `/${f.replace(/\./g, '\\.')}$`)] },
    { ...shared, displayName: 'serial', roots, testMatch: serialPaths.length ? serialPaths : ['<rootDir>/no-serial-files'], runner: '<rootDir>/test/support/serial-runner.js' },
  ],
};
