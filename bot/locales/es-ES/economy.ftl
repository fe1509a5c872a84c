# /riqueza, /apostar, /intercambio y /tienda.

economy-amount = { $amount } × { $what }
economy-nothing = nada
economy-contender = { $seat } ({ $name })
economy-nobody-yet = nadie todavía

wealth-title = Riqueza de { $name }
wealth-line = { $amount } × { $what } · vale { $value }
wealth-empty = Aún nada.
wealth-total-name = Total
wealth-total = vale { $total } monedas de cobre
wealth-items = Objetos
wealth-footer = Solo tú ves esto; el registro de tu riqueza es privado de tu dinastía.
asset-held-choice = { $what } · tienes { $amount }

shop-title = Tienda
shop-line = **{ $item }** · { $price } (vale { $value }){ $held ->
        [0] {""}
       *[other] {" "}· tienes { $held }
    }
shop-empty = No hay nada a la venta.
shop-footer = Una llave permite a tu dinastía organizar torneos en su campo de batalla cerrado.
shop-placeholder = Compra una llave…
shop-choice = { $item } · { $price }
shop-bought = Tu dinastía ha comprado una { $item } por { $price } y ahora tiene { $held }: puedes organizar torneos en { $battlefield }.
refusal-choose-a-key = Elige una llave de la lista.

bet-title = Apuesta en el torneo #{ $tournament }
bet-placed = { $bettor } apuesta { $stake } × { $asset } por { $seat } ({ $name }). Lo apostado queda retenido hasta que termine el torneo: quienes apostaron por los ganadores se reparten el bote según lo apostado; un empate o un torneo cancelado lo devuelve.
bet-pools = Botes, de todos los apostantes
pool-line = **{ $seat }** { $name }: { $stakes }

trade-title = Intercambio #{ $trade } · { trade-status-name }
trade-description = { $offerer } ofrece un intercambio a { $receiver }.
trade-gives = { $name } da
trade-open-until = Abierto hasta
trade-answer-button = { $answer ->
        [accept] Aceptar
       *[decline] Rechazar
    } #{ $trade }
trade-offer-sent = Oferta #{ $trade } enviada a { $receiver }.
trade-offer-closed-dms = { $mention }, { $offerer } ofrece a tu dinastía el intercambio #{ $trade }. No puedo enviarte mensajes directos: míralo en privado y responde con /intercambio lista.
trades-title = Intercambios abiertos
trades-empty = No hay intercambios abiertos.
trades-incoming = Te ofrecen: { $trade }
trades-outgoing = Ofreciste: { $trade }
trade-line = #{ $trade } { $offerer } da { $gives }; { $receiver } da { $asks }
refusal-bet-on-training = El torneo #{ $tournament } es de entrenamiento: no admite apuestas, porque nada de un combate de entrenamiento queda registrado (R-T6). Apuesta en uno serio.
