// Jest's globalSetup and globalTeardown run outside its module system, so path aliases need registering there.
import { register } from 'tsconfig-paths';
import { compilerOptions } from '../../tsconfig.json';

register({ baseUrl: `${__dirname}/../..`, paths: compilerOptions.paths });
