# /ajustes: los ajustes de un servidor para los torneos.

settings-title = Ajustes de este servidor
settings-defaults = Valores por defecto de los torneos nuevos
settings-default-line = `{ $option }`: **{ $value }** ({ $whose ->
        [server] de este servidor
       *[built-in] de fábrica
    })
settings-ignored-line = `{ $option }`: un valor guardado que ya no es válido y se ignora; vuelve a elegirlo
setting-value = { $value ->
        [v-10-minutes] 10 minutos
        [v-1-hour] 1 hora
        [v-6-hours] 6 horas
        [v-1-day] 1 día
        [v-3-days] 3 días
        [v-7-days] 7 días
        [v-yes] sí
        [v-no] no
       *[other] { $label }
    }
settings-channels = Canales para torneos
settings-any-channel = cualquier canal donde pueda publicar tableros
settings-announcement-role = Rol de los anuncios
settings-role = cada anuncio menciona a { $role }
settings-no-role = ninguno: los anuncios no mencionan a nadie
settings-language-name = Idioma
settings-language = { $code } ({ $name })
settings-language-unchosen = sin elegir: el idioma del servidor en Discord, { $code } ({ $name })
settings-pace-name = Combates sin personas
settings-pace = un turno cada { $seconds } { $seconds ->
        [one] segundo
       *[other] segundos
    } como mucho ({ $whose ->
        [server] de este servidor
       *[built-in] de fábrica
    })
settings-footer = Los miembros con Gestionar servidor los cambian con /ajustes.

settings-default-done = Los torneos nuevos tienen { $option }: **{ $value }** salvo que su anfitrión elija otra cosa.
settings-default-built-in = Los torneos nuevos tienen { $option } de fábrica: **{ $value }**.
settings-channel-added = Los torneos se pueden anunciar en { $channel }; /torneo crear se rechaza en los canales que no estén en la lista.
settings-channel-removed = Los torneos nuevos ya no se anuncian en { $channel } (los que ya están en curso allí siguen); se pueden anunciar en { $left ->
        [any] cualquier canal
       *[named] los canales de la lista
    }.
settings-channels-cleared = Los torneos se pueden anunciar en cualquier canal donde pueda publicar tableros.
settings-role-done = Cada torneo que se anuncie aquí menciona a { $role }, y a nadie más.
settings-role-none = Los anuncios no mencionan a nadie.
settings-role-not-mentionable = Nota: no todos pueden mencionar a { $role }, así que los anuncios lo nombrarán sin avisar. Permite que cualquiera lo @mencione (en los ajustes del rol), o dame Mencionar @everyone, @here y todos los roles.
settings-pace-done = Un combate en el que ya no juega ninguna persona (solo jugadores del ordenador, o asientos cedidos a ellos) resuelve un turno cada { $seconds } { $seconds ->
        [one] segundo
       *[other] segundos
    } como mucho ({ $whose ->
        [server] lo eligió este servidor
       *[built-in] el ritmo de fábrica
    }), para que su canal se pueda leer.
settings-language-done = El idioma de este servidor es { $code } ({ $name }): el bot lo habla en los canales de este servidor (anuncios, tableros, resultados). Cada jugador lee las respuestas que solo ve él en su propio idioma de Discord.
refusal-managed-role = { $role } pertenece a un bot o a una integración; elige un rol que tomen los jugadores para enterarse de los torneos nuevos.

## El visor de partidas en la web (issue #37)

settings-viewer-name = Visor de partidas en la web
settings-viewer = { $shared ->
        [yes] compartido: cualquiera con el enlace de un torneo puede verlo y repetirlo
       *[no] no compartido: nadie fuera de Discord ve los combates de este servidor (/{ $command } los comparte)
    }
settings-viewer-done = { $shared ->
        [yes] Ahora cualquiera con un enlace puede ver en la web los torneos de este servidor, también los terminados.{ $links ->
            [yes] {" "}Cada tablero que se publique desde ahora, y cada entrada de /{ $history }, enlaza con su página.
           *[no] {" "}Los tableros no llevan enlace mientras el bot no tenga dirección pública: quien lo aloja define PUBLIC_URL.
        }
       *[no] Los torneos de este servidor ya no se comparten en la web: sus páginas lo dicen y dejan de actualizarse.
    }
