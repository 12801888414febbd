import { describeDocExamples } from '../support/doc-examples';

// Every example of the README, run against a test gateway (see test/support/doc-examples.ts).
describeDocExamples(['README.md']);
