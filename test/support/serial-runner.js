// Jest's own runner, made serial: the files of the `serial` project (jest.config.js)
// run one after another in the main process, after the parallel ones.
const TestRunner = require('jest-runner').default;

class SerialRunner extends TestRunner {
  constructor(...args) {
    super(...args);
    this.isSerial = true;
  }
}

module.exports = SerialRunner;
