import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { photosEndpoints } from '../../src/contract/photos.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { presignCertificate } from '../services/certificate-service.ts';
import { confirmPhotograph } from '../services/photo-acceptance.ts';
import { getPhotograph, listPhotographs } from '../services/photo-service.ts';
import { completePhotoUpload, presignPhoto } from '../services/photo-upload-service.ts';

/** The photos of an order and their upload straight to storage (docs/api.md §7). */
export const photoRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...routeOf(photosEndpoints.createPresignedUrl),
      handler: (request) => {
        const body = request.body;
        // The same address serves the certificate (a user guid) and photos (an order guid).
        if ('file_name' in body) return presignCertificate(deps, request.actor, body);
        return presignPhoto(deps, request.actor, request.params.guid.toLowerCase(), body);
      },
    });

    app.route({
      ...routeOf(photosEndpoints.completeUpload),
      handler: (request) => completePhotoUpload(deps, request.actor, request.params.guid, request.body),
    });

    app.route({
      ...routeOf(photosEndpoints.photographUploaded),
      handler: async (request, reply) => {
        const answer = await confirmPhotograph(deps, request.actor, request.params.guid, request.body, request.log);
        return reply.code(answer.status).send(answer.body);
      },
    });

    app.route({
      ...routeOf(photosEndpoints.labOrderPhotographs),
      handler: (request) => listPhotographs(deps, request.actor, request.params.guid, request.query),
    });

    app.route({
      ...routeOf(photosEndpoints.photograph),
      handler: (request) => getPhotograph(deps, request.actor, request.params.guid, request.params.photoGuid),
    });
  };
