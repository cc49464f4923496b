/** Every command of the CLI. Each module keeps heavy imports inside run(). */
import type { CommandSpec } from '../cli-context.js';
import { command as config } from './config.js';
import { command as demo } from './demo.js';
import { command as observe } from './observe.js';
import { command as run } from './run.js';
import { command as schedule } from './schedule.js';
import { command as status } from './status.js';

export const commands: CommandSpec[] = [observe, run, status, config, demo, schedule];
