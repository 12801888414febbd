/**
 * The simulator's public entry: everything outside this package (the
 * gateway, its tests, the benchmark and the drills) imports from here.
 */
export { type SimulatorHandle, startSimulator } from './server';
export { type SimulatorOptions, simulatorOptionsFromEnv } from './options';
export { runSimulatorFromEnv } from './main';
