import { describeDocExamples } from '../support/doc-examples';

// Every example of docs/endpoints.md, in TypeScript, Python and curl, run against a test gateway (see test/support/doc-examples.ts).
describeDocExamples(['docs/endpoints.md']);
