# Los datos de un jugador borrados a petición suya (issue #40 item 11): /privacidad borrar
# (cogs/privacy.py, bot/views/privacy.py); cómo llaman tableros y registro a un jugador borrado.

privacy-ask = ¿Borrar lo que el bot guarda de ti? No se puede deshacer.
    {"**"}Se borra:** tu id de Discord, tu idioma, paleta, avisos, tutorial, ausencias, regente, combates seguidos, ofertas de intercambio abiertas (se anulan), la riqueza y las llaves de tu dinastía, las puntuaciones de habilidad de tus emperadores y tus programas (revocados).
    {"**"}Se guarda, anónimo:** { $combats ->
        [0] ningún combate: no ocupaste asiento en ninguno.
        [one] el combate que jugaste, para el historial de los demás: sus tableros, registro y resultados.
        *[other] los { $combats } combates que jugaste, para el historial de los demás: sus tableros, registro y resultados.
    } { $dynasty ->
        [yes] { $emperors ->
            [0] Tu dinastía se queda, llamada
            [one] Tu dinastía y su emperador se quedan, llamados
            *[other] Tu dinastía y sus { $emperors } emperadores se quedan, llamados
        } «jugador borrado» ({ $entries } entradas del registro).
        *[no] { $combats ->
            [0] {""}
            *[other] Tus asientos allí se llaman «jugador borrado».
        }
    }
    Un comando que uses después empieza de cero, como jugador nuevo.
privacy-confirm = Borrar mis datos
privacy-cancel = Cancelar
privacy-erased = Hecho: lo que el bot guardaba de ti está borrado, y el resto es anónimo.
privacy-kept = No se ha borrado nada.
privacy-deleted-player = jugador borrado
log-deleted-player = un jugador borrado

refusal-privacy-not-yours = Solo quien preguntó puede responder a esta pregunta.
refusal-privacy-in-combat = aún juegas en el torneo #{ $tournament } (o lo organizas): termínalo, ríndete o sal de él (quien organiza lo cancela), y vuelve a pedirlo
refusal-privacy-wealth-held = tu dinastía aún tiene riqueza retenida en el torneo #{ $tournament } (una apuesta, una aportación, un cofre o un premio): espera a que termine y vuelve a pedirlo
refusal-privacy-in-series = aún participas en la serie #{ $series }: sal de ella mientras esté abierta, o espera a que termine, y vuelve a pedirlo
