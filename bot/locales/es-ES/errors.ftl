# Las negativas de los servicios (UserError): qué salió mal y qué hacer en su lugar.

refusal-no-dynasty = Aún no tienes dinastía: funda una con /dinastia fundar (o crea un emperador).
refusal-no-such-emperor = Tu dinastía no tiene ningún emperador vivo llamado '{ $name }': mira /emperador lista, o crea uno con /emperador crear.
refusal-name-a-dynasty = Di el nombre de una dinastía, o pide la tuya.
refusal-no-log-page = La crónica no tiene página { $page } (las páginas llegan hasta la { NUMBER($last, useGrouping: 1) }). Ábrela otra vez con /dinastia cronica.

refusal-bet-short = Tu dinastía solo tiene { $available } × { $asset }: apuesta como mucho { $available }, o apuesta otro bien.
refusal-trade-own-dynasty = Esa es tu propia dinastía: ofrece el intercambio a otra.
refusal-offer-time = Una oferta sigue abierta entre 1 minuto y 7 días; elige otro plazo.
refusal-offer-short = Tu dinastía solo tiene { $held } × { $what }: no ofrezcas más que eso.
refusal-too-many-open-offers = Tu dinastía ya tiene { $limit } ofertas abiertas a { $dynasty }, el máximo permitido: espera sus respuestas o retira una con /intercambio retirar.
refusal-too-many-offers = Tu dinastía ha hecho { $limit } ofertas de intercambio en la última hora, el máximo permitido: podrás volver a ofrecer dentro de { $minutes } { $minutes ->
        [one] minuto
       *[other] minutos
    }.
refusal-no-such-thing = No hay ningún bien ni objeto llamado '{ $what }': escribe cantidades como «5 gold, 2 ruby, 1 key:fortress-4»; mira los nombres en /riqueza y /tienda.
refusal-trade-at-least-one = Intercambia al menos 1 { $what }.
refusal-too-much = Ninguna dinastía tiene nunca más de { NUMBER($limit, useGrouping: 1) } de un mismo bien u objeto, así que ningún intercambio puede pedir ni dar más; escribe una cantidad menor.
refusal-shop-sells-no = La tienda no vende '{ $item }'; mira en /tienda lo que está a la venta.
refusal-buy-short = La { $item } cuesta { $price }, pero tu dinastía solo tiene { $available } × { $what }. Consigue antes lo que falta con un intercambio.
refusal-no-such-asset = No hay ningún bien '{ $asset }'; elige uno de: { $choices }.
refusal-accept-short = El intercambio #{ $trade } pide { $asks }, pero tu dinastía solo tiene { $held } × { $what }. Reúnelo antes, o recházalo.
refusal-offerer-short = { $dynasty } ya no tiene lo que ofreció ({ $gives }), así que el intercambio #{ $trade } no puede hacerse ahora; recházalo o vuelve a intentarlo más tarde.
refusal-no-such-contender = Nadie llamado '{ $backed }' tiene asiento en el torneo #{ $tournament }; apuesta por uno de: { $seated }.

refusal-not-manager = Solo un miembro con Gestionar servidor puede cambiar los ajustes de este servidor; pídeselo a uno de ellos.
refusal-channels-gone = Los canales que este servidor eligió para los torneos ya no existen: un miembro con Gestionar servidor puede elegir otros con /ajustes canales.
refusal-create-elsewhere = En este servidor los torneos se anuncian en { $channels }: créalo allí. (Un miembro con Gestionar servidor elige esos canales con /ajustes canales).
refusal-no-default-option = /torneo crear no tiene ninguna opción '{ $option }' con valor por defecto del servidor; elige una de: { $choices }.
refusal-default-choices = { $option } admite uno de estos valores: { $choices }. Elige uno.
refusal-too-many-channels = Este servidor ya tiene { $limit } canales para torneos, el máximo: quita uno antes con /ajustes canales quitar.
refusal-channel-not-named = { $channel } no es uno de los canales elegidos para torneos; míralos con /ajustes ver.
refusal-everyone-role = Los anuncios no pueden mencionar a @everyone; elige un rol que tomen los jugadores para enterarse de los torneos nuevos.
refusal-language-choices = El idioma es uno de: { $choices }. Elige uno.
refusal-settings-need-server = Los ajustes son de un servidor: usa /ajustes en ese servidor.

refusal-command-gone = Este comando ya no existe tal como lo muestra tu Discord: puede que Discord aún muestre una lista antigua de comandos durante un minuto o así. Vuelve a intentarlo en un minuto.
