/**
 * The composition root: the only place that wires adapters to the core and the UI.
 */
import { mount } from 'svelte';
import './ui/theme.css';
import App from './ui/App.svelte';
import { probeWebGpu } from './adapters/gpu/webgpu-probe';
import { registerServiceWorker } from './adapters/pwa/register-sw';
import { DeviceState } from './ui/state/device.svelte';
import { PwaState } from './ui/state/pwa.svelte';
import { Router } from './ui/state/router.svelte';
import type { AppServices } from './ui/services';

const router = new Router();
const device = new DeviceState(() => probeWebGpu());
// Nothing generates yet in the shell; the chat session replaces this with its own flag.
const pwa = new PwaState(() => false);

const services: AppServices = { router, device, pwa };

mount(App, { target: document.getElementById('app')!, props: { services } });

void device.check();
registerServiceWorker(pwa);
