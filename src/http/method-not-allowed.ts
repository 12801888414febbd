import { Errors } from '../errors/errors';
import { requestPath, type HttpRequest, type HttpResponse, type Next } from './http-types';

export function methodNotAllowed(allowed: string[]) {
  return (req: HttpRequest, res: HttpResponse, next: Next): void => {
    res.setHeader('Allow', allowed.join(', '));
    next(Errors.methodNotAllowed(req.method ?? '', requestPath(req), allowed));
  };
}
