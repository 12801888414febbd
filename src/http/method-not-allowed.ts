import type { NextFunction, Request, Response } from 'express';
import { Errors } from './errors';

export function methodNotAllowed(allowed: string[]) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Allow', allowed.join(', '));
    next(Errors.methodNotAllowed(req.method, req.path, allowed));
  };
}
