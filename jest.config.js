/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/packages/simulator/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // The simulator package runs from its sources in tests, as tsconfig.json's `paths` reads it.
  moduleNameMapper: { '^@model-gateway/simulator$': '<rootDir>/packages/simulator/src/index.ts' },
  setupFiles: ['reflect-metadata'],
  testTimeout: 30000,
  // Every spy is put back before the next test (and at the end of each file), so none leaks into another test.
  restoreMocks: true,
};
