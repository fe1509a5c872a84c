# Lo que leen los jugadores cuando el bot no puede hacer su trabajo por una razón de su anfitrión, no de ellos.

refusal-database-unavailable = la base de datos del juego no está disponible; vuelve a intentarlo dentro de un minuto (no se ha perdido nada de lo que hiciste antes)
