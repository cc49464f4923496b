/** Every command of the CLI. Each module keeps heavy imports inside run(). */
import type { CommandSpec } from '../cli-context.js';
import { command as config } from './config.js';
import { command as demo } from './demo.js';
import { command as doctor } from './doctor.js';
import { command as get } from './get.js';
import { command as indexCmd } from './index-cmd.js';
import { command as integrate } from './integrate.js';
import { command as observe } from './observe.js';
import { command as run } from './run.js';
import { command as schedule } from './schedule.js';
import { command as setup } from './setup.js';
import { command as start } from './start.js';
import { command as stats } from './stats.js';
import { command as stop } from './stop.js';
import { command as watch } from './watch.js';
import { command as search } from './search.js';
import { command as sources } from './sources.js';
import { command as status } from './status.js';
import { command as tier } from './tier.js';
import { command as archive } from './archive.js';
import { command as approvals } from './approvals.js';
import { command as sync } from './sync.js';
import { command as forget } from './forget.js';
import { command as exportCmd } from './export.js';
import { command as reflect } from './reflect.js';
import { command as alerts } from './alerts.js';

export const commands: CommandSpec[] = [observe, run, status, config, demo, schedule, watch, start, stop, integrate, doctor, stats, setup, indexCmd, search, get, tier, archive, approvals, sync, forget, exportCmd, sources, reflect, alerts];
