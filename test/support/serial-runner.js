// Jest's own runner, made serial: the files of the `serial` project (jest.config.js)
// run one after another in the main process, while no other file runs (jest runs
// each runner's files in turn).
const TestRunner = require('jest-runner').default;

class SerialRunner extends TestRunner {
  constructor(...args) {
    super(...args);
    this.isSerial = true;
  }
}

module.exports = SerialRunner;
