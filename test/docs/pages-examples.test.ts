import { describeDocExamples } from '../support/doc-examples';

// Every example of the documentation pages besides the endpoints' (which have a file of their own),
// run against one test gateway (see test/support/doc-examples.ts).
describeDocExamples([
  'docs/configuration.md',
  'docs/errors.md',
  'docs/spend-control.md',
  'docs/graphql.md',
  'docs/operations.md',
  'docs/console.md',
  'docs/development.md',
  'docs/performance.md',
  'docs/reliability.md',
]);
